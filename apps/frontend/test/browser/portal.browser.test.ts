/**
 * A customer opens the quote link the office sent: the tenant-branded quote with its windows,
 * options, tax, total and deposit; accepts with name and signature once; asks for changes; and a
 * link that expired, was revoked, never existed or is opened on another tenant's host gets one
 * clear page that reveals nothing. The control plane is a stand-in honouring the portal contract.
 */
import { join } from 'node:path';

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestFrontend, type TestFrontend } from '../support/frontend-harness.js';
import { PortalStandin } from '../support/portal-standin.js';
import { axe, DESKTOP, launchChromium, PHONE_375, sign } from './chromium.js';

const SHOTS = join(process.cwd(), 'test-results', 'frontend');
let portal: PortalStandin;
let fe: TestFrontend;
let browser: Browser;
let acme: string;
let otherHost: string;

beforeAll(async () => {
  portal = new PortalStandin();
  await portal.start();
  [fe, browser] = await Promise.all([startTestFrontend(portal.url), launchChromium()]);
  acme = (await fe.db.db.query<{ id: string }>(`SELECT id FROM tenants WHERE slug = 'acme'`)).rows[0]!.id;
  await fe.db.db.query(`INSERT INTO tenants (slug, name) VALUES ('bolt', 'Bolt Shutters')`);
  // *.localhost is loopback in Chromium: the second tenant's subdomain on the same port.
  otherHost = fe.url.replace('127.0.0.1', 'bolt.tenants.localhost');
  const day = 86_400_000;
  const mk = (expiresIn: number, revoked = false) => ({
    tenantId: acme,
    expiresAt: Date.now() + expiresIn,
    revoked,
    state: 'sent' as const,
    notes: [],
  });
  portal.tokens.set('tok-accept-0123456789abcdef', mk(day));
  portal.tokens.set('tok-changes-0123456789abcdef', mk(day));
  portal.tokens.set('tok-expired-0123456789abcdef', mk(-1000));
  portal.tokens.set('tok-revoked-0123456789abcdef', mk(day, true));
});
afterAll(async () => {
  await browser?.close();
  await fe?.close();
  await portal?.close();
});

describe('the quote portal', () => {
  it("shows the branded quote and records one acceptance with the customer's name and signature", async () => {
    const ctx = await browser.newContext(PHONE_375);
    const page = await ctx.newPage();
    await page.goto(`${fe.url}/portal/quote/tok-accept-0123456789abcdef`);
    const text = await page.textContent('main');
    expect(text).toContain('S00042');
    expect(text).toContain('35 1/2″ × 60 1/8″');
    expect(text).toContain('Motorisation');
    expect(text).toMatch(/Plantation Shutter\s*Lining/);
    expect(text).toContain('$655.00');
    expect(text).toContain('$1,465.02');
    expect(text).toContain('$732.51');
    expect(await page.textContent('header')).toContain('Acme Blinds');
    expect(await axe(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: join(SHOTS, 'portal-quote-375.png'), fullPage: true });
    // Refused without a signature, said on the page.
    await page.fill('#acc-name', 'Carla Customer');
    await page.click('#accept-form button[type=submit]');
    await page.waitForSelector('#acc-msg:has-text("Sign in the box first")');
    await sign(page, '#acc-sig');
    await page.click('#accept-form button[type=submit]');
    await page.waitForSelector('text=your quote is accepted');
    const t = portal.tokens.get('tok-accept-0123456789abcdef')!;
    expect(t.accepted).toMatchObject({ name: 'Carla Customer', times: 1 });
    expect(t.accepted!.signatureBytes).toBeGreaterThan(500);
    await page.reload();
    await page.waitForSelector('text=This quote is accepted');
    expect(await page.locator('#accept-form').count()).toBe(0);
    await ctx.close();
  });

  it("sends the customer's change request to the office", async () => {
    const ctx = await browser.newContext(DESKTOP);
    const page = await ctx.newPage();
    await page.goto(`${fe.url}/portal/quote/tok-changes-0123456789abcdef`);
    expect(await axe(page)).toEqual([]);
    await page.fill('#chg-note', 'Can the bedroom shade be blackout?');
    await page.click('#changes-form button[type=submit]');
    await page.waitForSelector('#chg-msg:has-text("the office will get back to you")');
    expect(portal.tokens.get('tok-changes-0123456789abcdef')!.notes).toEqual(['Can the bedroom shade be blackout?']);
    await page.screenshot({ path: join(SHOTS, 'portal-quote-desktop.png'), fullPage: true });
    await ctx.close();
  });

  it('gives expired, revoked, unknown and other-tenant links the same clear page, revealing nothing', async () => {
    const ctx = await browser.newContext(PHONE_375);
    const page = await ctx.newPage();
    const bodies: string[] = [];
    for (const url of [
      `${fe.url}/portal/quote/tok-expired-0123456789abcdef`,
      `${fe.url}/portal/quote/tok-revoked-0123456789abcdef`,
      `${fe.url}/portal/quote/tok-never-issued-0123456789`,
      `${otherHost}/portal/quote/tok-changes-0123456789abcdef`,
    ]) {
      const r = await page.goto(url);
      expect(r!.status(), url).toBe(404);
      const text = (await page.textContent('main'))!;
      expect(text).toContain('This link no longer works');
      expect(text).not.toMatch(/S00042|Carla|Living room|expired|revoked/i);
      expect(await axe(page)).toEqual([]);
      bodies.push(text.replace(/call .*$/s, ''));
    }
    expect(new Set(bodies.slice(0, 3)).size).toBe(1);
    await page.screenshot({ path: join(SHOTS, 'portal-invalid-375.png'), fullPage: true });
    await ctx.close();
  });
});
