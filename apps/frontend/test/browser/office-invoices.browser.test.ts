/**
 * The final invoice in Chromium against the real platform with `npm start`'s Stripe stand-in: a
 * completed job whose order has a paid 50 % deposit shows "Invoice"; the office invoices it and lands
 * on the invoice (deposit deducted), records a partial cash payment and resends the pay link; the
 * Invoices tabs list it with the customer's balance; the customer opens the emailed link, sees the
 * deposit deducted and the amount due, pays with 4242 on the stand-in's page and comes back; the
 * worker registers the payment and the ERP invoice is paid; the owner refunds $5 of it from the
 * invoice (a credit note in the ERP), and the form then suggests, and is capped at, what is left. Axe 0 and no sideways scroll at 1280 and 375 px on each screen.
 */
import { oneWindowQuote } from '@platform/contracts/examples.js';
import { formatMoney } from '@platform/contracts/money.js';
import { describe, expect, it } from 'vitest';

import { waitUntil } from '../support/real-platform.js';
import { DESKTOP } from './chromium.js';
import { signInToOffice } from './office-session.js';
import { bothWidthsChecker, useRealPlatform } from './real-session.js';

const s = useRealPlatform({ localProviders: true });
const checkBothWidths = bothWidthsChecker('invoices');
const SIGNATURE = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A's Stripe account, connected through the stand-in's onboarding page. */
async function connectStripe(): Promise<void> {
  const { a } = s.p;
  const c = await s.p.api(a.owner.token, 'POST', `/api/tenants/${a.id}/payments/connect`);
  expect(c.status, JSON.stringify(c.body)).toBe(200);
  const done = await fetch(c.body.onboarding_url as string, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'business_name=Acme+Blinds',
    redirect: 'manual',
  });
  expect(done.status).toBe(303);
}

/** An accepted quote with half its total paid as a deposit at the office, and its completed job. */
async function completedJob(): Promise<{ jobId: string; orderId: number }> {
  const { a } = s.p;
  const q = await s.p.api(
    a.office.token,
    'POST',
    '/sales/quotes',
    oneWindowQuote({ customer: { name: 'Priya Raman', email: 'priya@example.com' } }),
  );
  expect(q.status, JSON.stringify(q.body)).toBe(201);
  const sent = await s.p.api(a.office.token, 'POST', `/sales/quotes/${q.body.id}/send`);
  const accepted = await s.p.api(
    undefined,
    'POST',
    `/portal/quotes/${sent.body.token}/accept`,
    { name: 'Priya Raman', signature_png_base64: SIGNATURE },
    { 'x-tenant-id': a.id },
  );
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  const quote = (await s.p.api(a.office.token, 'GET', `/sales/quotes/${q.body.id}`)).body;
  const orderId = quote.sale_order_id as number;
  // Half paid in cash at the office: the control plane's deposit job confirms the order and posts
  // and pays its down-payment invoice.
  const deposit = await s.p.api(a.office.token, 'POST', `/sales/quotes/${q.body.id}/deposit`, {
    method: 'cash',
    amount_minor: Math.round((quote.amount_total as number) * 50),
  });
  expect(deposit.status, JSON.stringify(deposit.body)).toBe(201);
  const erp = await s.p.erpOf(a);
  await waitUntil('the deposit in the ERP', async () => {
    const [o] = await erp.read('sale.order', [orderId], ['state', 'invoice_ids']);
    return o?.state === 'sale' && (o.invoice_ids as number[]).length ? o : undefined;
  });
  const job = await s.p.api(a.office.token, 'POST', '/jobs', {
    customer: { name: 'Priya Raman', email: 'priya@example.com' },
    address: { street: '1 Main St', city: 'Denver', zip: '80202' },
    windows: [{ room: 'Office', product: 'Roller shade', width_in: 36, drop_in: 48, mount: 'inside' }],
    sale_order_id: orderId,
  });
  expect(job.status, JSON.stringify(job.body)).toBe(201);
  const done = await s.p.api(a.office.token, 'POST', `/jobs/${job.body.id}/complete`, { resolution: 'Fitted.' });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return { jobId: job.body.id as string, orderId };
}

/** The newest pay link emailed for the invoice. */
async function payLink(number: string): Promise<string> {
  return waitUntil('the pay link email', async () => {
    const r = await s.p.db.query<{ payload: unknown }>(
      `SELECT payload FROM outbox WHERE topic = 'email.transactional' ORDER BY id DESC`,
    );
    const text = r.rows
      .map((x) => JSON.stringify(x.payload))
      .find((t) => t.includes(number) && t.includes('/portal/invoice/'));
    return text ? /\/portal\/invoice\/([A-Za-z0-9_-]{43})/.exec(text)?.[1] : undefined;
  });
}

describe('the final invoice, from the office to the customer paying the balance', () => {
  it('invoices the completed job, records a payment, and the customer pays the rest with 4242', async () => {
    const { a } = s.p;
    await connectStripe();
    const { jobId } = await completedJob();
    const ctx = await s.browser.newContext(DESKTOP);
    const page = await signInToOffice(s, ctx, a, `/office/jobs/${jobId}`, a.office.email);
    await page.getByRole('button', { name: 'Invoice', exact: true }).click();
    await page.waitForURL(/\/office\/invoices\/\d+$/);
    await page.waitForSelector('h1:has-text("Invoice")');
    const invoiceId = Number(page.url().split('/').pop());
    const before = (await s.p.api(a.office.token, 'GET', `/invoices/${invoiceId}`)).body;
    expect(before.residual_minor).toBeGreaterThan(1000);
    await checkBothWidths(page, 'invoice');

    await page.fill('#pay-amount', '10');
    await page.selectOption('#pay-method', 'cash');
    await page.click('#pay-record');
    await page.waitForSelector('text=Payment of $10.00 recorded.');
    expect((await s.p.api(a.office.token, 'GET', `/invoices/${invoiceId}`)).body.residual_minor).toBe(
      before.residual_minor - 1000,
    );
    await page.fill('#pay-amount', String(before.residual_minor));
    await page.click('#pay-record');
    await page.waitForSelector('#pay-amount[aria-invalid="true"]');
    await page.click('#invoice-send');
    await page.waitForSelector('text=Pay link sent to priya@example.com.');

    await page.click('nav[aria-label="Office"] >> text=Invoices');
    await page.waitForSelector('#invoices-table');
    expect(await page.textContent('#invoices-table')).toContain(before.number);
    expect(await page.textContent('#invoice-balances')).toContain('Priya Raman');
    await checkBothWidths(page, 'list');

    const token = await payLink(before.number);
    const customer = await s.browser.newContext(DESKTOP);
    const pay = await customer.newPage();
    await pay.goto(`${s.p.siteOf(a)}/portal/invoice/${token}`);
    await pay.waitForSelector('#amount-due');
    expect(await pay.textContent('#deposit-deducted')).toMatch(/\$\d/);
    expect(await pay.textContent('#amount-due')).toContain(((before.residual_minor - 1000) / 100).toFixed(2));
    await checkBothWidths(pay, 'pay-page');
    await pay.click('#pay-invoice');
    await pay.getByLabel('Card number').fill('4242 4242 4242 4242');
    await pay.getByLabel('Expiry (MM / YY)').fill('12 / 34');
    await pay.getByLabel('CVC').fill('123');
    await pay.getByRole('button', { name: /^Pay / }).click();
    await pay.waitForURL(/\/portal\/invoice\/.*\?payment=paid/);
    await pay.waitForSelector('#payment-received, #invoice-paid');

    const erp = await s.p.erpOf(a);
    await waitUntil('the worker registered the card payment', async () => {
      const [m] = await erp.read('account.move', [invoiceId], ['payment_state', 'amount_residual']);
      return m?.payment_state === 'paid' ? m : undefined;
    });
    await pay.reload();
    await pay.waitForSelector('#invoice-paid');
    await checkBothWidths(pay, 'pay-page-paid');
    await page.goto(`${s.p.siteOf(a)}/office/invoices?state=paid`);
    await page.waitForSelector('#invoices-table');
    expect(await page.textContent('#invoices-table')).toContain(before.number);

    // The owner refunds part of the card payment from the invoice (the office sees no refund form).
    await page.goto(`${s.p.siteOf(a)}/office/invoices/${invoiceId}`);
    await page.waitForSelector('#invoice-payments');
    expect(await page.$('.refund-form')).toBeNull();
    const owner = await s.browser.newContext(DESKTOP);
    const ownerPage = await signInToOffice(s, owner, a, `/office/invoices/${invoiceId}`, a.owner.email);
    const form = ownerPage.locator('form.refund-form');
    await form.waitFor();
    await checkBothWidths(ownerPage, 'invoice-paid-owner');
    await form.locator('input').fill('5');
    await form.getByRole('button', { name: 'Refund to the card' }).click();
    await ownerPage.waitForSelector('text=Refunded $5.00 to the card.');
    const credit = await erp.searchRead(
      'account.move',
      [
        ['reversed_entry_id', '=', invoiceId],
        ['move_type', '=', 'out_refund'],
      ],
      { fields: ['state', 'amount_total'] },
    );
    expect(credit).toEqual([expect.objectContaining({ state: 'posted', amount_total: 5 })]);
    // The form now suggests what is left of the payment, and refuses a cent more, naming the amount.
    const left = before.residual_minor - 1000 - 500;
    expect(await form.locator('input').inputValue()).toBe((left / 100).toFixed(2));
    await form.locator('input').fill(((left + 1) / 100).toFixed(2));
    await form.getByRole('button', { name: 'Refund to the card' }).click();
    await form.locator('input[aria-invalid="true"]').waitFor();
    expect(await form.textContent()).toContain(`must be at most ${formatMoney(left, 'USD')}`);
    await checkBothWidths(ownerPage, 'refund-too-much');
    await owner.close();
    await customer.close();
    await ctx.close();
  }, 240_000);
});
