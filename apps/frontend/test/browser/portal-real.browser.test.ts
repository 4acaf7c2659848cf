/**
 * The portal must-show against the real platform (test/support/real-platform.ts): the office
 * sends a quote through the control plane's /sales API, the customer opens the link at 375 px and
 * accepts with a signature, and the ERP's sale order is confirmed. The same link on another tenant's
 * host, after revocation and after expiry gets the one clear "link no longer works" page.
 */
import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { axe, PHONE_375, sign } from './chromium.js';
import { SHOTS, useRealPlatform } from './real-session.js';

const s = useRealPlatform();

interface SentQuote {
  id: string;
  name: string;
  saleOrderId: number;
  token: string;
  portalUrl: string;
}

/** The office makes a quote from the default price grids and sends it: the customer's link. */
async function officeSendsQuote(customer: string): Promise<SentQuote> {
  const token = s.p.a.office.token;
  const made = await s.p.api(
    token,
    'POST',
    '/sales/quotes',
    {
      customer: { name: customer, email: `${customer.split(' ')[0]!.toLowerCase()}@example.com` },
      lines: [
        {
          product_code: 'roller-shade',
          room: 'Living room',
          width_in: 35.5,
          drop_in: 47.125,
          mount: 'inside',
          colour: 'Linen',
          options: ['motorisation'],
        },
      ],
    },
    { 'idempotency-key': randomUUID() },
  );
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const sent = await s.p.api(token, 'POST', `/sales/quotes/${made.body.id}/send`, {});
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return {
    id: made.body.id,
    name: made.body.name,
    saleOrderId: made.body.sale_order_id,
    token: sent.body.token,
    portalUrl: sent.body.portal_url,
  };
}

/** Opens a link and checks it shows the one clear page, naming nothing of the quote. */
async function expectClearPage(page: Page, url: string, q: SentQuote, customer: string): Promise<string> {
  const r = await page.goto(url);
  expect(r!.status(), url).toBe(404);
  const text = (await page.textContent('main'))!;
  expect(text).toContain('This link no longer works');
  expect(text).not.toContain(q.name);
  expect(text).not.toMatch(new RegExp(`${customer}|Living room|Roller|expired|revoked`, 'i'));
  expect(await axe(page)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  return text;
}

describe('the quote portal on the real platform', () => {
  it("confirms the ERP's sale order when the customer accepts with a signature", async () => {
    const q = await officeSendsQuote('Carla Customer');
    expect(new URL(q.portalUrl).hostname).toBe(`${s.p.a.slug}.tenants.localhost`);
    const ctx = await s.browser.newContext(PHONE_375);
    const page = await ctx.newPage();
    // The link's path on the tenant's own host (the test's frontend listens on its own port).
    await page.goto(`${s.p.siteOf(s.p.a)}${new URL(q.portalUrl).pathname}`);
    const text = (await page.textContent('main'))!;
    expect(text).toContain(q.name);
    expect(text).toContain('Living room');
    expect(text).toMatch(/Roller Shade\s*Motorisation/);
    expect(await page.textContent('header')).toContain('Acme Blinds');
    expect(await axe(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: join(SHOTS, 'real-portal-quote-375.png'), fullPage: true });

    await page.fill('#acc-name', 'Carla Customer');
    await sign(page, '#acc-sig');
    await page.click('#accept-form button[type=submit]');
    await page.waitForSelector('text=your quote is accepted');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'real-portal-accepted-375.png'), fullPage: true });
    const erp = await s.p.erpOf(s.p.a);
    const [order] = await erp.searchRead('sale.order', [['id', '=', q.saleOrderId]], { fields: ['state'] });
    expect(order!.state).toBe('sale');

    await page.reload();
    await page.waitForSelector('text=This quote is accepted');
    expect(await page.locator('#accept-form').count()).toBe(0);
    expect(await axe(page)).toEqual([]);
    await ctx.close();
  });

  it("gives the link on another tenant's host, after revocation and after expiry the same clear page", async () => {
    const q = await officeSendsQuote('Rita Revoked');
    const path = new URL(q.portalUrl).pathname;
    const ctx = await s.browser.newContext(PHONE_375);
    const page = await ctx.newPage();
    // A live link, but on B's host: B's tenant cannot see A's token.
    expect((await page.goto(`${s.p.siteOf(s.p.a)}${path}`))!.status()).toBe(200);
    expect(await axe(page)).toEqual([]);
    const onB = await expectClearPage(page, `${s.p.siteOf(s.p.b)}${path}`, q, 'Rita Revoked');
    expect(onB).not.toMatch(/Acme|303-555-0100|acme-a/);
    await page.screenshot({ path: join(SHOTS, 'real-portal-other-tenant-375.png'), fullPage: true });

    const revoked = await s.p.api(s.p.a.office.token, 'POST', `/sales/quotes/${q.id}/revoke-links`, {});
    expect(revoked.status).toBe(200);
    // On A's own host the page says whom to ask for a new link.
    expect(await expectClearPage(page, `${s.p.siteOf(s.p.a)}${path}`, q, 'Rita Revoked')).toContain('303-555-0100');
    await page.screenshot({ path: join(SHOTS, 'real-portal-revoked-375.png'), fullPage: true });

    const e = await officeSendsQuote('Ed Expired');
    const ePath = new URL(e.portalUrl).pathname;
    expect((await page.goto(`${s.p.siteOf(s.p.a)}${ePath}`))!.status()).toBe(200);
    expect(await axe(page)).toEqual([]);
    // Thirty days pass: the link's expiry, kept by the portal's repository, is now behind us.
    const hash = createHash('sha256').update(e.token).digest('hex');
    const moved = await s.p.db.query(
      `UPDATE portal_tokens SET expires_at = now() - interval '1 minute' WHERE token_hash = $1`,
      [hash],
    );
    expect(moved.rowCount).toBe(1);
    await expectClearPage(page, `${s.p.siteOf(s.p.a)}${ePath}`, e, 'Ed Expired');
    await ctx.close();
  });
});
