/**
 * The final invoice against a real embedded ERP and the local Stripe stand-in: a completed job is
 * invoiced once (the paid deposit deducted, posted), emailed with a pay link; the office lists it,
 * records partial payments up to the residual; the customer's pay page shows the deposit deducted and
 * the amount due, and "Pay" makes one session however many clicks race; the card payment reaches the
 * ERP's outbox job once; another tenant's host or ids never reach A's invoice.
 */
import type { RunningLocalStripe } from '@platform/providers/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { CrmSalesKit, SalesTenant } from '../../testing/crm-sales-kit.js';
import { startWithStripe, type StripeKit } from '../../testing/stripe-kit.js';
import { acceptedOrder as accepted, completedJob as completed } from './invoicing.test-support.js';
import { payToken as payTokenOf } from './invoicing-stripe.test-support.js';

let s: StripeKit;
let k: CrmSalesKit;
let stripe: RunningLocalStripe;
let accountA: string;
let KEY: string;

beforeAll(async () => {
  s = await startWithStripe();
  ({ k, stripe, accountA, key: KEY } = s);
}, 120_000);
afterAll(() => s?.close());

const onHost = (t: SalesTenant) => ({ 'x-tenant-id': t.id });
const toMinor = (major: number) => Math.round(major * 100);

const payToken = (n: string) => payTokenOf(k, n);

describe('invoicing a completed job', () => {
  it('refuses a job that is not completed, and makes nothing', async () => {
    const { orderId } = await accepted(k, k.a, { deposit: false });
    const job = await k.call('POST', '/jobs', k.a.office, {
      customer: { name: 'Open Job' },
      address: { street: '2 Main St', city: 'Denver', zip: '80202' },
      windows: [],
      sale_order_id: orderId,
    });
    const r = await k.call('POST', `/jobs/${job.body.id}/invoice`, k.a.office);
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: 'INVOICE_NOT_DUE', reason: 'not_completed' });
    expect((await k.a.erp.erp.read('sale.order', [orderId], ['invoice_ids']))[0]!.invoice_ids).toEqual([]);
  });

  it('makes one posted final invoice with the paid deposit deducted, however many requests race', async () => {
    const { orderId, deposit } = await accepted(k, k.a);
    const jobId = await completed(k, k.a, orderId);
    const [order] = await k.a.erp.erp.read('sale.order', [orderId], ['amount_total']);
    const calls = await Promise.all(
      Array.from({ length: 5 }, () => k.call('POST', `/jobs/${jobId}/invoice`, k.a.office)),
    );
    const made = calls.filter((c) => c.status === 201);
    expect(made, JSON.stringify(calls.map((c) => c.body))).toHaveLength(1);
    for (const c of calls) expect([200, 201, 409]).toContain(c.status);
    const inv = made[0]!.body.invoice;
    expect(inv).toMatchObject({
      total_minor: toMinor(Number(order!.amount_total)) - toMinor(deposit),
      residual_minor: toMinor(Number(order!.amount_total)) - toMinor(deposit),
      currency: 'USD',
      state: 'open',
    });
    const again = await k.call('POST', `/jobs/${jobId}/invoice`, k.a.office);
    expect(again.status).toBe(200);
    expect(again.body.invoice.id).toBe(inv.id);
    const ofOrder = (await k.a.erp.erp.read('sale.order', [orderId], ['invoice_ids', 'invoice_status']))[0]!;
    expect((ofOrder.invoice_ids as number[]).length).toBe(2);
    expect(ofOrder.invoice_status).toBe('invoiced');
    expect((await k.a.erp.erp.read('account.move', [inv.id], ['state']))[0]!.state).toBe('posted');
  });

  it('replays the first answer under the same Idempotency-Key', async () => {
    const { orderId } = await accepted(k, k.a);
    const jobId = await completed(k, k.a, orderId);
    const first = await k.call('POST', `/jobs/${jobId}/invoice`, k.a.office, undefined, { 'idempotency-key': 'inv-1' });
    const replay = await k.call('POST', `/jobs/${jobId}/invoice`, k.a.office, undefined, {
      'idempotency-key': 'inv-1',
    });
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
  });
});

describe('the office records payments and the customer pays the rest from the link', () => {
  let invoice: { id: number; number: string; residual_minor: number };
  let token: string;

  beforeAll(async () => {
    const { orderId } = await accepted(k, k.a);
    const jobId = await completed(k, k.a, orderId);
    invoice = (await k.call('POST', `/jobs/${jobId}/invoice`, k.a.office)).body.invoice;
    token = await payToken(invoice.number);
  }, 60_000);

  it('lists the invoice as open with its residual and the balance per customer', async () => {
    const r = await k.call('GET', '/invoices?state=open', k.a.office);
    expect(r.status).toBe(200);
    expect(r.body.items.find((i: any) => i.id === invoice.id)).toMatchObject({
      residual_minor: invoice.residual_minor,
    });
    expect(r.body.balances.find((b: any) => b.customer.name === 'Priya Raman').residual_minor).toBeGreaterThanOrEqual(
      invoice.residual_minor,
    );
    expect((await k.call('GET', '/invoices?state=late', k.a.office)).status).toBe(422);
  });

  it('refuses more than the residual naming amount_minor, and takes a partial cash payment once per key', async () => {
    const over = await k.call('POST', `/invoices/${invoice.id}/payments`, k.a.office, {
      amount_minor: invoice.residual_minor + 1,
      method: 'cash',
    });
    expect(over.status).toBe(422);
    expect(JSON.stringify(over.body)).toContain('amount_minor');
    const body = { amount_minor: 1000, method: 'cash' };
    const key = { 'idempotency-key': 'cash-1' };
    const paid = await k.call('POST', `/invoices/${invoice.id}/payments`, k.a.office, body, key);
    const again = await k.call('POST', `/invoices/${invoice.id}/payments`, k.a.office, body, key);
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body.residual_minor).toBe(invoice.residual_minor - 1000);
    expect(again.body).toEqual(paid.body);
    const payments = await k.a.erp.erp.searchRead('account.payment', [['reconciled_invoice_ids', 'in', [invoice.id]]], {
      fields: ['amount'],
    });
    expect(payments.map((p) => p.amount)).toEqual([10]);
    invoice = { ...invoice, residual_minor: paid.body.residual_minor };
  });

  it("shows the customer the deposit deducted and the amount due, only on the tenant's own host", async () => {
    const page = await k.call('GET', `/portal/invoices/${token}`, undefined, undefined, onHost(k.a));
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body.invoice).toMatchObject({ residual_minor: invoice.residual_minor, pay_state: 'due' });
    expect(page.body.invoice.deposit_deducted_minor).toBeGreaterThan(0);
    expect(page.body.invoice.lines.some((l: any) => l.down_payment)).toBe(true);
    const other = await k.call('GET', `/portal/invoices/${token}`, undefined, undefined, onHost(k.b));
    expect(other.status).toBe(404);
    expect(other.body.code).toBe('PORTAL_LINK_INVALID');
    expect((await k.call('POST', `/portal/invoices/${token}/checkout`, undefined, undefined, onHost(k.b))).status).toBe(
      404,
    );
  });

  it('makes one session for the residual whatever twenty clicks do; the 4242 card queues one ERP payment', async () => {
    const clicks = await Promise.all(
      Array.from({ length: 20 }, () =>
        k.call('POST', `/portal/invoices/${token}/checkout`, undefined, undefined, onHost(k.a)),
      ),
    );
    expect(clicks.map((c) => c.status)).toEqual(Array(20).fill(200));
    expect(new Set(clicks.map((c) => c.body.session_id)).size).toBe(1);
    const r = await fetch(`${stripe.url}/v1/checkout/sessions?limit=100`, {
      headers: { authorization: `Bearer ${KEY}`, 'stripe-account': accountA },
    });
    const sessions = ((await r.json()).data as any[]).filter(
      (s) => s.metadata?.kind === 'invoice' && s.metadata?.ref === String(invoice.id),
    );
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ amount_total: invoice.residual_minor, currency: 'usd' });
    const sessionId = clicks[0]!.body.session_id as string;
    stripe.pay(sessionId, { number: '4242424242424242', expiry: '12/40', cvc: '123' });
    await stripe.flushWebhooks();
    const event = stripe.events.find(
      (e: any) => e.type === 'checkout.session.completed' && e.data.object.id === sessionId,
    );
    await stripe.resendEvent(event!['id'] as string);
    await stripe.flushWebhooks();
    const jobs = await k.kit.t.db.query(`SELECT payload FROM outbox WHERE topic = 'invoicing.card_payment'`);
    const payloads = jobs.rows.map((x: any) => (typeof x.payload === 'string' ? JSON.parse(x.payload) : x.payload));
    expect(payloads.filter((p: any) => p.invoiceId === invoice.id)).toEqual([
      expect.objectContaining({ amountMinor: invoice.residual_minor, currency: 'USD', sessionId }),
    ]);
    // Paid at the provider, not yet in the ERP (the worker's job): the page offers no second payment.
    const page = await k.call('GET', `/portal/invoices/${token}`, undefined, undefined, onHost(k.a));
    expect(page.body.invoice.pay_state).toBe('processing');
    const again = await k.call('POST', `/portal/invoices/${token}/checkout`, undefined, undefined, onHost(k.a));
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('INVOICE_NOT_PAYABLE');
  });
});
