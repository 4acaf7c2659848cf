/**
 * Issue 24's API keys, pending invitations and audit log against the real platform: A's owner makes
 * an API key (shown once, with Copy, never again after a reload), revokes it on a second press;
 * invites someone, sees the invitation pending, resends and revokes it; reads the audit log (people
 * named, never a uuid), filters it by action and person. An admin is told the audit log is the
 * owners'. On Free, B's owner reads which plan brings API access. Axe 0 and no sideways scroll at
 * 1280 and 375 px.
 */
import type { BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import type { SeededTenant } from '../support/real-platform.js';
import { DESKTOP } from './chromium.js';
import { signInToOffice } from './office-session.js';
import { bothWidthsChecker, useRealPlatform } from './real-session.js';

const s = useRealPlatform();
const signIn = (ctx: BrowserContext, t: SeededTenant, path: string, email: string) =>
  signInToOffice(s, ctx, t, path, email);
const checkBothWidths = bothWidthsChecker('keys-audit');
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

describe("the owner's console: API keys, invitations, audit log", () => {
  it('makes an API key shown once, revokes it; resends and revokes an invitation; reads and filters the audit log', async () => {
    const { a } = s.p;
    const ctx = await s.browser.newContext(DESKTOP);
    const page = await signIn(ctx, a, '/office/settings/developers', a.owner.email);
    await page.waitForSelector('h2:has-text("API keys")');

    // No description: the API's sentence beside the field.
    await page.click('#api-key-form button[type=submit]');
    await page.waitForSelector('#key-desc[aria-invalid="true"]');
    await page.fill('#key-desc', 'Accounting sync');
    await page.uncheck('input[name=scopes][value="write:crm.lead"]');
    await page.click('#api-key-form button[type=submit]');
    await page.waitForSelector('#new-key');
    expect(await page.textContent('section.secret')).toContain("won't be shown again");
    const key = await page.inputValue('#new-key');
    expect(key).toMatch(/^erpk_[A-Za-z0-9_-]{8}_[A-Za-z0-9_-]{43}$/);
    await page.click('#copy-key');
    await page.waitForSelector('text=API key copied.');
    await checkBothWidths(page, 'key-made');

    await page.reload();
    const card = page.locator('li.card', { hasText: 'Accounting sync' });
    await card.waitFor();
    expect(await page.content()).not.toContain(key);
    const line = (await card.textContent()) ?? '';
    expect(line).toContain('last used never');
    expect(line).toContain('Read contacts');
    expect(line).not.toContain('Write leads');
    await card.locator('button[data-revoke-key]').click();
    await page.waitForSelector('button[data-revoke-key]:has-text("Confirm: revoke Accounting sync")');
    await page.click('button[data-revoke-key]');
    await page.waitForSelector('text=API key revoked');
    expect(await page.locator('li.card', { hasText: 'Accounting sync' }).textContent()).toContain('revoked');
    await checkBothWidths(page, 'key-revoked');

    await page.click('nav[aria-label="Settings"] >> text=Team');
    await page.waitForSelector('h1:has-text("Settings: Team")');
    await page.fill('#invite-email', 'nina@acme-a.test');
    await page.selectOption('#invite-role', 'technician');
    await page.click('#invite-form button[type=submit]');
    await page.waitForSelector('text=Invitation sent to nina@acme-a.test');
    const invitation = page.locator('li.card', { hasText: 'nina@acme-a.test' });
    expect(await invitation.textContent()).toContain('pending');
    expect(await invitation.textContent()).toContain(`Sent by ${a.owner.email}`);
    await checkBothWidths(page, 'team-pending');
    await invitation.locator('button[data-resend]').click();
    await page.waitForSelector('text=Invitation sent again to nina@acme-a.test');
    await invitation.locator('button[data-revoke]').click();
    await page.waitForSelector('button[data-revoke]:has-text("Confirm: revoke the invitation of nina@acme-a.test")');
    await page.click('button[data-revoke]');
    await page.waitForSelector('text=Invitation revoked: its link no longer works.');
    expect(await page.locator('li.card', { hasText: 'nina@acme-a.test' }).count()).toBe(0);

    const tabs = await page.locator('nav[aria-label="Settings"] a').allTextContents();
    expect(tabs.at(-1)).toBe('Audit log');
    await page.click('nav[aria-label="Settings"] >> text=Audit log');
    await page.waitForSelector('h1:has-text("Settings: Audit log")');
    await page.waitForSelector('table.lines tbody tr');
    const table = (await page.textContent('table.lines')) ?? '';
    for (const action of ['api_key.create', 'api_key.revoke', 'user.invite_resend', 'user.invite_revoke'])
      expect(table).toContain(action);
    expect(table).toContain(a.owner.email);
    for (const cell of await page.locator('td[data-label="Who"], td[data-label="Target"]').allTextContents())
      expect(cell).not.toMatch(UUID);
    await checkBothWidths(page, 'audit');

    // Applies the filters and waits for the page drawn with them (the message is cleared first).
    const filter = async () => {
      await page.evaluate(() => (document.getElementById('office-msg')!.textContent = ''));
      await page.click('#audit-filters button[type=submit]');
      await page.waitForSelector('#office-msg:has-text("Filters applied.")');
    };
    await page.selectOption('#audit-action', 'api_key.revoke');
    await filter();
    const rows = page.locator('table.lines tbody tr');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('api key');
    await page.selectOption('#audit-action', '');
    await page.selectOption('#audit-actor', { label: 'Terry Tech' });
    await filter();
    expect(await page.textContent('table.lines tbody')).not.toContain(a.owner.email);
    await ctx.close();
  });

  it('tells an admin the audit log is the owners’, and an owner on Free which plan brings API access', async () => {
    const { a, b } = s.p;
    const admin = await s.p.invite(a, 'ada@acme-a.test', 'admin', 'Ada Admin');
    const adminCtx = await s.browser.newContext(DESKTOP);
    const ada = await signIn(adminCtx, a, '/office/settings/audit', admin.email);
    await ada.waitForSelector("text=The audit log is shown to the company's owners only.");
    await adminCtx.close();

    const down = await s.p.api(b.owner.token, 'PUT', `/api/tenants/${b.id}/plan`, { plan: 'free' });
    expect(down.status, JSON.stringify(down.body)).toBe(200);
    const ctx = await s.browser.newContext(DESKTOP);
    const page = await signIn(ctx, b, '/office/settings/developers', b.owner.email);
    await page.waitForSelector('text=API access comes with the Professional plan');
    await checkBothWidths(page, 'keys-free');
    await ctx.close();
  });
});
