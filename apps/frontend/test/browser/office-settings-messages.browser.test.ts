/**
 * Settings → Customer messages against the real platform: A's owner sees each kind with its text and
 * email, previews a changed text filled with sample values and the company's name, is told beside
 * the field when a template names an unknown placeholder, turns the review request on with a review
 * link and a later reminder hour, and saves; the API answers what was saved. Axe 0 and no sideways
 * scroll at 1280 and 375 px.
 */
import { describe, expect, it } from 'vitest';

import { DESKTOP } from './chromium.js';
import { signInToOffice } from './office-session.js';
import { bothWidthsChecker, useRealPlatform } from './real-session.js';

const s = useRealPlatform();
const checkBothWidths = bothWidthsChecker('settings');

describe("the owner's customer messages", () => {
  it('previews, refuses an unknown placeholder beside its field, and saves', async () => {
    const { a } = s.p;
    const ctx = await s.browser.newContext(DESKTOP);
    const page = await signInToOffice(s, ctx, a, '/office/settings/company', a.owner.email);
    await page.click('nav[aria-label="Settings"] >> text=Customer messages');
    await page.waitForSelector('h1:has-text("Settings: Customer messages")');
    expect(await page.inputValue('#msg-hour')).toBe('17');
    await checkBothWidths(page, 'messages');
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.fill('#msg-on_my_way-sms', '{{company}}: {{technician}} arrives in {{eta}} minutes.');
    await page.click('button[data-preview="on_my_way"]');
    await page.waitForSelector('#msg-on_my_way-preview >> text=Acme Blinds: Alex arrives in 20 minutes.');

    await page.fill('#msg-reminder-sms', 'See you {{tomorow}}');
    await page.click('#messages-form button[type=submit]');
    await page.waitForSelector('#msg-reminder-sms[aria-invalid="true"]');
    expect(await page.textContent('#msg-reminder-sms-err')).toContain('{{tomorow}}');

    await page.fill('#msg-reminder-sms', '{{company}}: see you tomorrow, {{window}}.');
    await page.check('#msg-review_request-on');
    await page.fill('#msg-review-link', 'https://g.page/r/acme-blinds/review');
    await page.fill('#msg-hour', '18');
    await page.click('#messages-form button[type=submit]');
    await page.waitForSelector('#office-msg.ok:has-text("Customer messages saved.")');
    const saved = (await s.p.api(a.owner.token, 'GET', `/api/tenants/${a.id}/messages`)).body;
    expect(saved).toMatchObject({ reminder_hour: 18, review_link: 'https://g.page/r/acme-blinds/review' });
    const kind = (k: string) => saved.kinds.find((x: { kind: string }) => x.kind === k);
    expect(kind('review_request').enabled).toBe(true);
    expect(kind('reminder').sms).toBe('{{company}}: see you tomorrow, {{window}}.');
    expect(kind('on_my_way').sms).toBe('{{company}}: {{technician}} arrives in {{eta}} minutes.');
    await checkBothWidths(page, 'messages-saved');
    await ctx.close();
  });
});
