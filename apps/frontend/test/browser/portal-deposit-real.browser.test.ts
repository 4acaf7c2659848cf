/**
 * The deposit on the real platform with `npm start`'s own Stripe stand-in (issue 27's must-show, its
 * first half): the tenant's ERP charges tax, the office sends a three-window quote, the customer at
 * 375 px accepts with a signature and presses "Pay deposit"; the stand-in's card page declines
 * 4000 0000 0000 0002 with a message a customer understands, then takes 4242 4242 4242 4242 and
 * sends them back to the portal, which says the deposit is paid. The ERP then holds the order
 * confirmed, one down-payment invoice posted and paid for exactly half the total with tax, and one
 * payment; and twenty "Pay" presses at once opened one checkout.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { waitUntil } from '../support/real-platform.js';
import { axe, PHONE_375, sign } from './chromium.js';
import { cents, tenantTakesCards } from './payments.steps.js';
import { SHOTS, useRealPlatform } from './real-session.js';

const s = useRealPlatform({ localProviders: true });
const win = (room: string, width_in: number) => ({
  product_code: 'roller-shade',
  room,
  width_in,
  drop_in: 47.125,
  mount: 'inside',
  colour: 'Linen',
  options: [],
});

describe('the deposit, paid by card on the portal', () => {
  it('is declined, then paid; the ERP order is confirmed with its down-payment invoice paid to the cent', async () => {
    await tenantTakesCards(s);
    const office = s.p.a.office.token;
    const made = await s.p.api(
      office,
      'POST',
      '/sales/quotes',
      {
        customer: { name: 'Dana Deposit', email: 'dana@example.com' },
        lines: [win('Living room', 35.5), win('Kitchen', 27.25), win('Bedroom', 46.125)],
      },
      { 'idempotency-key': randomUUID() },
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const sent = await s.p.api(office, 'POST', `/sales/quotes/${made.body.id}/send`, {});
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const quote = (await s.p.api(office, 'GET', `/sales/quotes/${made.body.id}`)).body;
    expect(quote.amount_tax).toBeGreaterThan(0);
    const deposit = Math.floor((cents(quote.amount_total) * 50 + 50) / 100);

    const ctx = await s.browser.newContext(PHONE_375);
    const page = await ctx.newPage();
    const portal = `${s.p.siteOf(s.p.a)}${new URL(sent.body.portal_url as string).pathname}`;
    await page.goto(portal);
    await page.fill('#acc-name', 'Dana Deposit');
    await sign(page, '#acc-sig');
    await page.click('#accept-form button[type=submit]');
    await page.waitForSelector('#pay-deposit');
    expect(await page.textContent('main')).toContain('Your deposit of');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'real-portal-deposit-due-375.png'), fullPage: true });
    const erp = await s.p.erpOf(s.p.a);
    const order = async () =>
      (await erp.read('sale.order', [quote.sale_order_id as number], ['state', 'invoice_ids']))[0]!;
    expect((await order()).state).not.toBe('sale');

    // Twenty presses at once: one checkout (the same session for all), nothing charged yet.
    const urls = await Promise.all(
      Array.from({ length: 20 }, () =>
        page.evaluate(
          async (path) => {
            const r = await fetch(path, { method: 'POST' });
            return ((await r.json()) as { url: string }).url;
          },
          `/api/control/portal/quotes/${sent.body.token as string}/deposit-checkout`,
        ),
      ),
    );
    expect(new Set(urls).size).toBe(1);

    await page.click('#pay-deposit');
    await page.waitForURL(/\/c\/pay\//);
    expect(await page.textContent('body')).toContain('Acme Blinds');
    const pay = async (card: string) => {
      await page.fill('#number', card);
      await page.fill('#expiry', '12 / 40');
      await page.fill('#cvc', '123');
      await page.click('form button[type=submit]');
    };
    await pay('4000 0000 0000 0002');
    await page.waitForSelector('text=Your card was declined');
    await page.screenshot({ path: join(SHOTS, 'real-portal-deposit-declined-375.png'), fullPage: true });
    await pay('4242 4242 4242 4242');
    await page.waitForURL((u) => u.pathname.startsWith('/portal/quote/'));
    await page.waitForSelector('#deposit-paid');
    expect(await page.textContent('main')).not.toContain('Deposit due');
    expect(await axe(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: join(SHOTS, 'real-portal-deposit-paid-375.png'), fullPage: true });

    const confirmed = await waitUntil('the deposit in the ERP', async () => {
      const o = await order();
      return o.state === 'sale' && (o.invoice_ids as number[]).length ? o : undefined;
    });
    const invoices = await erp.read('account.move', confirmed.invoice_ids as number[], [
      'state',
      'amount_total',
      'amount_residual',
      'payment_state',
    ]);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ state: 'posted', payment_state: 'paid' });
    expect(cents(Number(invoices[0]!.amount_total))).toBe(deposit);
    expect(cents(Number(invoices[0]!.amount_residual))).toBe(0);
    const payments = await erp.searchRead('account.payment', [['ref', 'like', `platform-deposit:${made.body.id}`]], {
      fields: ['amount'],
    });
    expect(payments.map((p) => cents(Number(p.amount)))).toEqual([deposit]);
    await ctx.close();
  });
});
