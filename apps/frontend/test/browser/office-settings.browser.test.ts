/**
 * Issue 24's owner's console against the real platform (test/support/real-platform.ts): A's owner adds
 * a webhook endpoint whose receiver is a loopback server here, sees its secret once, a web estimate
 * makes a lead and the receiver gets a signed lead.created that verifies with the Standard Webhooks
 * reference library; the delivery shows in the log as delivered and Replay sends it again with the
 * same webhook-id. A domain added shows its CNAME and `pending`; an invitation is sent and shows as
 * pending. Office staff see no Settings. On Free, B's owner is told which plan unlocks webhooks and
 * which allows another member. The office home's first-run checklist links to each screen and ticks
 * itself. Axe 0 and no sideways scroll at 1280 and 375 px.
 */
import { startLoopbackReceiver } from '@platform/webhooks/testing';
import type { BrowserContext } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type SeededTenant, waitUntil } from '../support/real-platform.js';
import { DESKTOP } from './chromium.js';
import { signInToOffice } from './office-session.js';
import { bothWidthsChecker, useRealPlatform } from './real-session.js';

const s = useRealPlatform();
let receiver: Awaited<ReturnType<typeof startLoopbackReceiver>>;
beforeAll(async () => {
  receiver = await startLoopbackReceiver();
});
afterAll(async () => receiver?.close());

const signIn = (ctx: BrowserContext, t: SeededTenant, path: string, email: string) =>
  signInToOffice(s, ctx, t, path, email);
const checkBothWidths = bothWidthsChecker('settings');

describe("the owner's console", () => {
  it('adds a webhook endpoint that gets a signed lead.created, logs it and replays it; adds a domain; invites', async () => {
    const { a } = s.p;
    const ctx = await s.browser.newContext(DESKTOP);
    const page = await signIn(ctx, a, '/office/leads', a.owner.email);
    // Settings opens on its first tab, Company; Developers is a tab away.
    await page.click('#nav-settings');
    await page.waitForSelector('h1:has-text("Settings: Company")');
    await page.click('.settings-tabs a:has-text("Developers")');
    await page.waitForSelector('h1:has-text("Settings: Developers")');

    // A URL the API refuses: its sentence beside the field.
    await page.fill('#wh-url', 'not a url');
    await page.click('#webhook-form button[type=submit]');
    await page.waitForSelector('#wh-url[aria-invalid="true"]');
    expect((await page.textContent('#wh-url-err'))?.length).toBeGreaterThan(0);

    await page.fill('#wh-url', receiver.url);
    await page.click('#webhook-form button[type=submit]');
    await page.waitForSelector('#new-secret');
    expect(await page.textContent('.secret')).toContain("won't be shown again");
    const secret = await page.inputValue('#new-secret');
    expect(secret).toMatch(/^whsec_/);
    await checkBothWidths(page, 'developers-secret');

    const posted = await s.p.postOnSite(a, '/api/estimate', 'estimate', {
      name: 'Hana Hook',
      email: 'hana@example.com',
      phone: '(303) 555-0142',
      zip: '80211',
      products: ['roller-shades'],
      form_source: 'estimate-page',
    });
    expect(posted.status, JSON.stringify(posted.body)).toBe(201);
    const first = await waitUntil('the signed lead.created', async () => receiver.received[0], 90_000);
    const event = new Webhook(secret).verify(first.body, first.headers) as { type: string; data: { contact: unknown } };
    expect(event.type).toBe('lead.created');
    expect(JSON.stringify(event.data.contact)).toContain('hana@example.com');

    const endpoints = await s.p.api(a.owner.token, 'GET', `/api/tenants/${a.id}/webhooks`);
    const endpointId = endpoints.body.items[0].id as string;
    await waitUntil('the delivery logged as delivered', async () => {
      const r = await s.p.api(a.owner.token, 'GET', `/api/tenants/${a.id}/webhooks/${endpointId}/deliveries`);
      return r.body.items[0]?.status === 'delivered' ? true : undefined;
    });
    await page.reload();
    await page.click(`button[data-log="${endpointId}"]`);
    const delivery = page.locator('li.delivery').first();
    await delivery.waitFor();
    const line = (await delivery.textContent()) ?? '';
    expect(line).toContain('lead.created');
    expect(line).toContain('delivered');
    expect(line).toContain(first.headers['webhook-id']);
    expect(line).toContain('response 200');
    await checkBothWidths(page, 'developers-log');

    await delivery.locator('button[data-replay]').click();
    await page.waitForSelector('text=Replay queued');
    const again = await waitUntil('the replayed delivery', async () => receiver.received[1], 90_000);
    expect(again.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(new Webhook(secret).verify(again.body, again.headers)).toMatchObject({ type: 'lead.created' });

    await page.click('nav[aria-label="Settings"] >> text=Domains');
    await page.waitForSelector('h1:has-text("Settings: Domains")');
    await page.fill('#domain-name', 'localhost');
    await page.click('#domain-form button[type=submit]');
    await page.waitForSelector('#domain-name[aria-invalid="true"]');
    await page.fill('#domain-name', 'www.acme-blinds-example.com');
    await page.click('#domain-form button[type=submit]');
    await page.waitForSelector('text=www.acme-blinds-example.com added');
    const card = page.locator('li.card', { hasText: 'www.acme-blinds-example.com' });
    expect(await card.textContent()).toContain('www.acme-blinds-example.com. CNAME tenants.localhost.');
    expect(await card.locator('.pill').first().textContent()).toBe('pending');
    await checkBothWidths(page, 'domains');

    await page.click('nav[aria-label="Settings"] >> text=Team');
    await page.waitForSelector('h1:has-text("Settings: Team")');
    expect(await page.textContent('aside')).toContain('Technicians: 1 of 10');
    await page.fill('#invite-email', 'nina@acme-a.test');
    await page.selectOption('#invite-role', 'technician');
    await page.click('#invite-form button[type=submit]');
    await page.waitForSelector('text=Invitation sent to nina@acme-a.test');
    expect(await page.locator('li.card', { hasText: 'nina@acme-a.test' }).textContent()).toContain('pending');
    await checkBothWidths(page, 'team');
    await page.locator('li.card', { hasText: 'nina@acme-a.test' }).locator('button[data-resend]').click();
    await page.waitForSelector('text=Invitation sent again to nina@acme-a.test');
    await page.selectOption(`#role-${a.technician.id}`, 'office');
    await page.click(`button[data-save-role="${a.technician.id}"]`);
    await page.waitForSelector('text=Role changed.');
    expect(await page.textContent('aside')).toContain('Technicians: 0 of 10');
    expect(await page.inputValue(`#role-${a.technician.id}`)).toBe('office');
    await ctx.close();

    const office = await s.browser.newContext(DESKTOP);
    const olga = await signIn(office, a, '/office/settings/team', a.office.email);
    await olga.waitForSelector('text=Owners and admins only');
    expect(await olga.locator('#nav-settings').isVisible()).toBe(false);
    await office.close();
  });

  it('tells an owner on Free which plan unlocks webhooks and which allows another member', async () => {
    const { b } = s.p;
    const down = await s.p.api(b.owner.token, 'PUT', `/api/tenants/${b.id}/plan`, { plan: 'free' });
    expect(down.status, JSON.stringify(down.body)).toBe(200);
    await s.p.invite(b, 'ola@bayside-b.test', 'office', 'Ola Office');
    const ctx = await s.browser.newContext(DESKTOP);
    const page = await signIn(ctx, b, '/office/settings/developers', b.owner.email);
    await page.waitForSelector('text=The Professional plan unlocks it.');
    await checkBothWidths(page, 'developers-free');

    await page.goto(`${s.p.siteOf(b)}/office/settings/team`);
    await page.waitForSelector('text=Users: 2 of 2');
    await page.fill('#invite-email', 'tom@bayside-b.test');
    await page.click('#invite-form button[type=submit]');
    await page.waitForSelector('text=The Starter plan allows more.');
    await checkBothWidths(page, 'team-limit');
    await ctx.close();
  });
  it('shows the owner a first-run checklist on the office home that links to each screen and ticks itself', async () => {
    const { b } = s.p;
    const ctx = await s.browser.newContext(DESKTOP);
    const page = await signIn(ctx, b, '/office', b.owner.email);
    await page.waitForSelector('#setup-checklist h2:has-text("Set up your company")');
    expect(await page.textContent('#setup-checklist [data-item="branding"]')).toContain('comes with Starter');
    expect(await page.getAttribute('#setup-checklist [data-item="domain"]', 'class')).not.toContain('done');
    await checkBothWidths(page, 'setup-checklist');

    await page.click('#setup-checklist [data-item="domain"] a');
    await page.waitForSelector('h1:has-text("Settings: Domains")');
    const added = await s.p.api(b.owner.token, 'POST', `/api/tenants/${b.id}/domains`, {
      domain: 'www.bayside-b.test',
    });
    expect(added.status, JSON.stringify(added.body)).toBeLessThan(300);
    await page.goto(`${s.p.siteOf(b)}/office`);
    await page.waitForSelector('#setup-checklist [data-item="domain"].done');
    expect(await page.textContent('#setup-checklist [data-item="domain"]')).toContain('done:');
    await ctx.close();
  });
});
