/**
 * The final invoice against a real embedded ERP and the local Stripe stand-in: a completed job is
 * invoiced once (the paid deposit deducted, posted), emailed with a pay link; the office lists it,
 * records partial payments up to the residual; the customer's pay page shows the deposit deducted and
 * the amount due, and "Pay" makes one session however many clicks race; the card payment reaches the
 * ERP's outbox job once; another tenant's host or ids never reach A's invoice.
 */
import { randomBytes } from 'node:crypto';

import { registerInvoicePayment } from '@platform/erp';
import { type RunningLocalStripe, startLocalStripe } from '@platform/providers/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type CrmSalesKit, type SalesTenant, startCrmSalesKit } from '../../testing/crm-sales-kit.js';
import { acceptedOrder as accepted, completedJob as completed } from './invoicing.test-support.js';

const KEY = `sk_test_${randomBytes(12).toString('hex')}`;
const WHSEC = `whsec_${randomBytes(16).toString('hex')}`;
let k: CrmSalesKit;
let stripe: RunningLocalStripe;
let accountA: string;

beforeAll(async () => {
  stripe = await startLocalStripe({ secretKey: KEY, host: '127.0.0.1', port: 0 });
  k = await startCrmSalesKit({
    STRIPE_SECRET_KEY: KEY,
    STRIPE_API_BASE: stripe.url,
    STRIPE_WEBHOOK_SECRET: WHSEC,
    TENANT_PUBLIC_ORIGIN: 'https://{host}',
  });
  const url = await k.kit.app.listen({ host: '127.0.0.1', port: 0 });
  stripe.addWebhookEndpoint(`${url}/webhooks/payments`, { connect: true, secret: WHSEC });
  const c = await k.call('POST', `/api/tenants/${k.a.id}/payments/connect`, k.a.owner);
  accountA = c.body.account_id as string;
  const done = await fetch(c.body.onboarding_url as string, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'business_name=Acme+Blinds',
    redirect: 'manual',
  });
  expect(done.status).toBe(303);
  expect((await k.call('GET', `/api/tenants/${k.a.id}/payments`, k.a.owner)).body.account.state).toBe('connected');
}, 120_000);
afterAll(async () => {
  await k?.close();
  await stripe?.close();
});

const onHost = (t: SalesTenant) => ({ 'x-tenant-id': t.id });
const toMinor = (major: number) => Math.round(major * 100);

/** The pay link the last invoice email carried. */
async function payToken(invoiceNumber: string): Promise<string> {
  const r = await k.kit.t.db.query(`SELECT payload FROM outbox WHERE topic = 'email.transactional' ORDER BY id DESC`);
  const texts = r.rows.map((x: any) =>
    JSON.stringify(typeof x.payload === 'string' ? JSON.parse(x.payload) : x.payload),
  );
  const text = texts.find((t: string) => t.includes(invoiceNumber) && t.includes('/portal/invoice/'));
  expect(text, 'an invoice email').toBeDefined();
  return /\/portal\/invoice\/([A-Za-z0-9_-]{43})/.exec(text!)![1]!;
}

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

  it('refunds part of the card payment at the provider with a credit note in the ERP; never more than is left', async () => {
    // The worker's job (invoice-card-payment.job.ts) registers the card payment; here directly.
    const rows = await k.kit.t.db.query(`SELECT payload FROM outbox WHERE topic = 'invoicing.card_payment'`);
    const job = rows.rows
      .map((x: any) => (typeof x.payload === 'string' ? JSON.parse(x.payload) : x.payload))
      .find((p: any) => p.invoiceId === invoice.id);
    const erp = k.a.erp.erp;
    const paymentId = await registerInvoicePayment(erp, {
      invoiceId: invoice.id,
      amount: job.amountMinor / 100,
      memo: `Card payment ${job.paymentIntentId}`,
    });
    const cash = (await erp.search('account.payment', [['ref', 'like', 'Cash%']]))[0]!;
    const notCard = await k.call('POST', `/payments/${cash}/refund`, k.a.owner, { amount_minor: 100 });
    expect(notCard.status).toBe(409);
    expect(notCard.body.reason).toBe('not_card');
    expect((await k.call('POST', `/payments/${paymentId}/refund`, k.a.office, { amount_minor: 500 })).status).toBe(403);
    const too = await k.call('POST', `/payments/${paymentId}/refund`, k.a.owner, { amount_minor: job.amountMinor + 1 });
    expect(too.status).toBe(422);
    expect(JSON.stringify(too.body)).toContain('amount_minor');
    const key = { 'idempotency-key': 'refund-1' };
    const r = await k.call('POST', `/payments/${paymentId}/refund`, k.a.owner, { amount_minor: 500 }, key);
    const again = await k.call('POST', `/payments/${paymentId}/refund`, k.a.owner, { amount_minor: 500 }, key);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(again.body).toEqual(r.body);
    expect(r.body).toMatchObject({ amount_minor: 500, currency: 'USD', refundable_minor: job.amountMinor - 500 });
    const at = await fetch(`${stripe.url}/v1/payment_intents/${job.paymentIntentId}`, {
      headers: { authorization: `Bearer ${KEY}`, 'stripe-account': accountA },
    });
    const charge = await fetch(`${stripe.url}/v1/charges/${(await at.json()).latest_charge}`, {
      headers: { authorization: `Bearer ${KEY}`, 'stripe-account': accountA },
    });
    expect((await charge.json()).amount_refunded).toBe(500);
    const [cn] = await erp.read(
      'account.move',
      [r.body.credit_note_id],
      ['move_type', 'state', 'amount_total', 'amount_residual'],
    );
    expect(cn).toMatchObject({ move_type: 'out_refund', state: 'posted', amount_total: 5, amount_residual: 0 });
    expect((await erp.read('account.move', [invoice.id], ['amount_residual']))[0]!.amount_residual).toBe(0);
    const back = await erp.searchRead('account.payment', [['ref', '=', `Card refund ${r.body.refund_id}`]], {
      fields: ['payment_type', 'amount', 'state'],
    });
    expect(back).toEqual([expect.objectContaining({ payment_type: 'outbound', amount: 5, state: 'posted' })]);
    // What is left: the invoice suggests it, and a second refund beyond it is refused naming the amount.
    const left = job.amountMinor - 500;
    const shown = await k.call('GET', `/invoices/${invoice.id}`, k.a.owner);
    const card = shown.body.payments.find((x: any) => x.id === paymentId);
    expect(card).toMatchObject({ card: true, amount_minor: job.amountMinor, refundable_minor: left });
    const over = await k.call('POST', `/payments/${paymentId}/refund`, k.a.owner, { amount_minor: left + 1 });
    expect(over.status).toBe(422);
    expect(over.body.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'amount_minor' })]),
    );
    const rest = await k.call('POST', `/payments/${paymentId}/refund`, k.a.owner, {});
    expect(rest.body).toMatchObject({ amount_minor: left, refundable_minor: 0 });
    const after = await k.call('GET', `/invoices/${invoice.id}`, k.a.owner);
    expect(after.body.payments.find((x: any) => x.id === paymentId).refundable_minor).toBe(0);
    const none = await k.call('POST', `/payments/${paymentId}/refund`, k.a.owner, { amount_minor: 1 });
    expect(none.status).toBe(409);
  });
});
