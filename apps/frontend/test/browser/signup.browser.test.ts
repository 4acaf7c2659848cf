/**
 * Issue 24's sign-up against the real platform (test/support/real-platform.ts): on the platform's
 * own host a newcomer types a company name, gets a slug proposed and checked live (taken and reserved
 * ones refused beside the field), signs up, lands in the office on the company's own host signed in with a banner asking to
 * verify the email and a working resend button, then opens the emailed link and is verified.
 * 1280 and 375 px, axe 0 violations.
 */

import { describe, expect, it } from 'vitest';

import { waitUntil } from '../support/real-platform.js';
import { axe, DESKTOP } from './chromium.js';
import { bothWidthsChecker, useRealPlatform } from './real-session.js';

const s = useRealPlatform();
const EMAIL = 'zoe@zulu-blinds.test';

const checkBothWidths = bothWidthsChecker('signup');

async function newestVerificationToken(): Promise<string> {
  return waitUntil('the verification email', async () => {
    const r = await s.p.db.query<{ text: string }>(
      `SELECT o.payload->>'text' AS text FROM email_messages m JOIN outbox o ON o.aggregate_id = m.id::text
        WHERE m.to_address = $1 AND m.template = 'email_verification' ORDER BY o.id DESC LIMIT 1`,
      [EMAIL],
    );
    return /\/verify-email#token=([A-Za-z0-9_-]{43})/.exec(r.rows[0]?.text ?? '')?.[1];
  });
}

describe('sign-up', () => {
  it('signs up a company, lands in the office asking to verify, and verifies from the emailed link', async () => {
    const platform = `http://localhost:${new URL(s.p.siteOf(s.p.a)).port}`;
    const ctx = await s.browser.newContext(DESKTOP);
    const page = await ctx.newPage();
    await page.goto(`${platform}/signup`);
    await page.fill('#s-company_name', 'Zulu Blinds & Co');
    expect(await page.inputValue('#s-slug')).toBe('zulu-blinds-co');
    await page.waitForSelector('#s-host:has-text("zulu-blinds-co.")');
    await checkBothWidths(page, 'form');

    await page.fill('#s-slug', s.p.a.slug);
    await page.waitForSelector('#s-slug-err:has-text("Another company has this address")');
    await page.fill('#s-slug', 'www');
    await page.waitForSelector('#s-slug-err:has-text("reserved")');
    expect(await page.getAttribute('#s-slug', 'aria-invalid')).toBe('true');
    await page.fill('#s-company_name', 'Zulu Blinds');
    expect(await page.inputValue('#s-slug')).toBe('www');
    await page.fill('#s-owner_name', 'Zoe Zulu');
    await page.fill('#s-email', EMAIL);
    await page.fill('#s-password', 'short');
    await page.click('#signup-form button[type=submit]');
    await page.waitForSelector('#s-password-err:has-text("at least 10 characters")');
    await checkBothWidths(page, 'errors');

    await page.fill('#s-slug', 'zulu-blinds');
    await page.waitForFunction(() => document.querySelector('#s-slug-err')?.textContent === '');
    await page.fill('#s-password', 'correct horse battery');
    await page.click('#signup-form button[type=submit]');
    // Signed in on the company's own host (the sign-in handed over there), not the platform's.
    await page.waitForURL('http://zulu-blinds.*/office/leads');
    const office = new URL(page.url()).origin;
    expect(page.url()).not.toContain('handoff');
    await page.waitForSelector('#verify-banner:has-text("Check your email to verify your address")');
    expect(await page.textContent('#office-bar')).toContain('Zoe Zulu (Owner) · Zulu Blinds');
    const first = await newestVerificationToken();
    await page.click('#verify-resend');
    await page.waitForSelector(`#verify-resend-msg:has-text("We sent a new link to ${EMAIL}")`);
    await checkBothWidths(page, 'office-banner');
    const token = await newestVerificationToken();
    expect(token).not.toBe(first);

    await page.goto(`${platform}/verify-email#token=${token}`);
    await page.waitForSelector('#verify-msg:has-text("Your email address is verified")');
    expect(page.url()).not.toContain(token);
    await checkBothWidths(page, 'verified');
    await page.goto(`${office}/office/leads`);
    await page.waitForSelector('body[data-email-verified="true"]', { state: 'attached' });
    expect(await page.locator('#verify-banner').count()).toBe(0);

    const used = await ctx.newPage();
    await used.goto(`${platform}/verify-email#token=${token}`);
    await used.waitForSelector('#verify-msg:has-text("no longer valid")');
    expect(await axe(used)).toEqual([]);
    await ctx.close();
  });
});
