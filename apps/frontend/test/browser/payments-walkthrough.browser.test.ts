/**
 * Issue 27's first must-show in Chromium, on the real platform with `npm start`'s stand-ins (Stripe,
 * the Xero-protocol accounting, mail): A's ERP charges tax and A's accounting is connected; the office
 * sends a three-window quote; the customer at 375 px signs and pays the 50 % deposit with 4242, and
 * the ERP holds one confirmed order with one down-payment invoice paid, the accounting stand-in the
 * same invoice total with nothing due. The install job is completed (by API), the office invoices it
 * at 1280 px, the customer pays the balance with 4242 from the emailed link: the order is fully
 * invoiced, every invoice paid in the ERP and at the accounting stand-in, totals equal to the cent.
 * The owner's partial refund then leaves the ERP residual equal to the stand-in's AmountDue.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { waitUntil } from '../support/real-platform.js';
import { axe, DESKTOP, PHONE_375, sign } from './chromium.js';
import { signInToOffice } from './office-session.js';
import {
  cents,
  mapTax,
  payWithCard,
  providerInvoice,
  standIns,
  tenantConnectsAccounting,
  tenantTakesCards,
} from './payments.steps.js';
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

/** Axe finds nothing, nothing scrolls sideways, and a screenshot at the page's width. */
async function check(page: Page, name: string): Promise<void> {
  expect(await axe(page)).toEqual([]);
  const width = page.viewportSize()!.width;
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  await page.screenshot({ path: join(SHOTS, `paywalk-${name}-${width}.png`), fullPage: true });
}

const MOVE_FIELDS = ['name', 'state', 'amount_total', 'amount_residual', 'payment_state', 'move_type'];

describe('getting paid, from the quote to the balance, in the ERP and the accounting system', () => {
  it('deposit by card, install, final invoice paid from the emailed link, a partial refund: all agree', async () => {
    const { a } = s.p;
    // 10 %: the accounting stand-in's OUTPUT rate (its rates are Xero's demo company's; it has no 8.25 %).
    const [tax] = await Promise.all([tenantTakesCards(s, 10), tenantConnectsAccounting(s)]);
    await mapTax(s, tax, 'OUTPUT');
    const erp = await s.p.erpOf(a);

    // The office sends a three-window quote with tax.
    const office = a.office.token;
    const made = await s.p.api(
      office,
      'POST',
      '/sales/quotes',
      {
        customer: { name: 'Walt Through', email: 'walt@example.com' },
        lines: [win('Living room', 35.5), win('Kitchen', 27.25), win('Bedroom', 46.125)],
      },
      { 'idempotency-key': randomUUID() },
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const sent = await s.p.api(office, 'POST', `/sales/quotes/${made.body.id}/send`, {});
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const quote = (await s.p.api(office, 'GET', `/sales/quotes/${made.body.id}`)).body;
    expect(quote.amount_tax).toBeGreaterThan(0);
    const total = cents(quote.amount_total);
    const deposit = Math.floor((total * 50 + 50) / 100);
    const orderId = quote.sale_order_id as number;

    // The customer, on a phone, signs and pays the deposit with 4242.
    const phone = await s.browser.newContext(PHONE_375);
    const customer = await phone.newPage();
    await customer.goto(`${s.p.siteOf(a)}${new URL(sent.body.portal_url as string).pathname}`);
    await customer.fill('#acc-name', 'Walt Through');
    await sign(customer, '#acc-sig');
    await customer.click('#accept-form button[type=submit]');
    await customer.waitForSelector('#pay-deposit');
    await check(customer, 'deposit-due');
    await customer.click('#pay-deposit');
    await customer.waitForURL(/\/c\/pay\//);
    await check(customer, 'card-page');
    await payWithCard(customer, '4242 4242 4242 4242');
    await customer.waitForURL((u) => u.pathname.startsWith('/portal/quote/'));
    await customer.waitForSelector('#deposit-paid');
    await check(customer, 'deposit-paid');

    // The ERP: one confirmed order, one down-payment invoice paid; the accounting stand-in: the same, nothing due.
    const confirmed = await waitUntil('the deposit in the ERP', async () => {
      const [o] = await erp.read('sale.order', [orderId], ['state', 'invoice_ids']);
      return o?.state === 'sale' && (o.invoice_ids as number[]).length ? o : undefined;
    });
    expect(await erp.search('sale.order', [['id', '=', orderId]])).toHaveLength(1);
    const [down] = await erp.read('account.move', confirmed.invoice_ids as number[], MOVE_FIELDS);
    expect(confirmed.invoice_ids).toHaveLength(1);
    expect(down).toMatchObject({ state: 'posted', payment_state: 'paid', amount_residual: 0 });
    expect(cents(Number(down!.amount_total))).toBe(deposit);
    const downAtProvider = await providerInvoice(s, down!.id, (i) => i.amount_due === 0);
    expect(cents(downAtProvider.total)).toBe(deposit);
    expect(downAtProvider).toMatchObject({ amount_due: 0, status: 'PAID' });

    // The install job is made and completed (the technician's part, by API).
    const job = await s.p.api(office, 'POST', '/jobs', {
      customer: { name: 'Walt Through', email: 'walt@example.com' },
      address: { street: '1 Main St', city: 'Denver', zip: '80202' },
      windows: [
        ['Living room', 35.5],
        ['Kitchen', 27.25],
        ['Bedroom', 46.125],
      ].map(([room, width_in]) => ({ room, product: 'Roller shade', width_in, drop_in: 47.125, mount: 'inside' })),
      sale_order_id: orderId,
    });
    expect(job.status, JSON.stringify(job.body)).toBe(201);
    const done = await s.p.api(office, 'POST', `/jobs/${job.body.id}/complete`, { resolution: 'Fitted.' });
    expect(done.status, JSON.stringify(done.body)).toBe(200);

    // The office invoices it from the job, at 1280 px.
    const desk = await s.browser.newContext(DESKTOP);
    const officePage = await signInToOffice(s, desk, a, `/office/jobs/${job.body.id}`, a.office.email);
    await check(officePage, 'job-completed');
    await officePage.getByRole('button', { name: 'Invoice', exact: true }).click();
    await officePage.waitForURL(/\/office\/invoices\/\d+$/);
    await officePage.waitForSelector('h1:has-text("Invoice")');
    const invoiceId = Number(officePage.url().split('/').pop());
    const final = (await s.p.api(office, 'GET', `/invoices/${invoiceId}`)).body;
    expect(final.residual_minor).toBe(total - deposit);
    await check(officePage, 'invoice');

    // The customer opens the emailed pay link (the mail stand-in's copy) and pays the balance with 4242.
    const link = await waitUntil('the pay link email', async () => {
      const mail = (await standIns(s)).mail.filter((m) => m.to.includes('walt@example.com'));
      return mail.flatMap((m) => m.links).find((l) => l.includes('/portal/invoice/'));
    });
    await customer.goto(`${s.p.siteOf(a)}${new URL(link).pathname}`);
    await customer.waitForSelector('#amount-due');
    expect(await customer.textContent('#amount-due')).toContain(((total - deposit) / 100).toFixed(2));
    await check(customer, 'balance-due');
    await customer.click('#pay-invoice');
    await customer.waitForURL(/\/c\/pay\//);
    await payWithCard(customer, '4242 4242 4242 4242');
    await customer.waitForURL(/\/portal\/invoice\/.*\?payment=paid/);
    await waitUntil('the balance registered in the ERP', async () => {
      const [m] = await erp.read('account.move', [invoiceId], ['payment_state']);
      return m?.payment_state === 'paid' ? m : undefined;
    });
    await customer.reload();
    await customer.waitForSelector('#invoice-paid');
    await check(customer, 'invoice-paid');

    // The order fully invoiced, every invoice paid, in the ERP and at the accounting stand-in, to the cent.
    const [order] = await erp.read('sale.order', [orderId], ['invoice_status', 'invoice_ids', 'amount_total']);
    expect(order).toMatchObject({ invoice_status: 'invoiced' });
    const moves = await erp.read('account.move', order!.invoice_ids as number[], MOVE_FIELDS);
    const invoices = moves.filter((m) => m.move_type === 'out_invoice');
    expect(invoices).toHaveLength(2);
    expect(invoices.map((m) => cents(Number(m.amount_total))).reduce((x, y) => x + y)).toBe(total);
    for (const m of invoices) {
      expect(m).toMatchObject({ state: 'posted', payment_state: 'paid', amount_residual: 0 });
      const atProvider = await providerInvoice(s, m.id, (i) => i.amount_due === 0);
      expect(cents(atProvider.total)).toBe(cents(Number(m.amount_total)));
    }

    // The owner refunds $5 of the card payment: the ERP residual equals the stand-in's AmountDue.
    const owner = await s.browser.newContext(DESKTOP);
    const ownerPage = await signInToOffice(s, owner, a, `/office/invoices/${invoiceId}`, a.owner.email);
    const form = ownerPage.locator('form.refund-form');
    await form.waitFor();
    await form.locator('input').fill('5');
    await form.getByRole('button', { name: 'Refund to the card' }).click();
    await ownerPage.waitForSelector('text=Refunded $5.00 to the card.');
    await check(ownerPage, 'refunded');
    const credit = await waitUntil('the credit note in the ERP', async () => {
      const found = await erp.searchRead(
        'account.move',
        [
          ['reversed_entry_id', '=', invoiceId],
          ['move_type', '=', 'out_refund'],
        ],
        { fields: ['name', 'state', 'amount_total'] },
      );
      return found.length ? found : undefined;
    });
    expect(credit).toEqual([expect.objectContaining({ state: 'posted', amount_total: 5 })]);
    // The credit note reaches the accounting stand-in (the embedded ERP counts it as settling the paid
    // invoice: residual 0; the provider keeps its credit unallocated: AmountDue 0), then both agree.
    const sentNote = await waitUntil('the credit note sent to accounting', async () => {
      const r = await s.p.db.query<{ result: Record<string, unknown> }>(
        `SELECT result FROM outbox WHERE tenant_id = $1 AND topic = 'accounting.push_money' AND status = 'done'
           AND result->>'kind' = 'credit_note'`,
        [a.id],
      );
      return r.rows[0]?.result;
    });
    expect(sentNote).toMatchObject({ pushed: true });
    const [after] = await erp.read('account.move', [invoiceId], MOVE_FIELDS);
    const finalAtProvider = await providerInvoice(s, invoiceId);
    expect(cents(finalAtProvider.amount_due)).toBe(cents(Number(after!.amount_residual)));
    expect(cents(finalAtProvider.total)).toBe(cents(Number(after!.amount_total)));
    await Promise.all([owner.close(), desk.close(), phone.close()]);
  }, 300_000);
});
