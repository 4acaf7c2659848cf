/**
 * The deposit's ERP side against the local Stripe stand-in and a real embedded ERP per tenant: the
 * order is confirmed only once the deposit is paid; the webhook, the customer back on the portal and
 * the reconciliation of a lost webhook all take one path, so whatever arrives first and however often,
 * the ERP gets one down-payment invoice, posted and paid to the cent, and one payment. The webhooks go
 * through a gate the test opens and closes (a late or lost webhook).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { TOPIC_DEPOSIT_ERP } from '@platform/contracts';
import { createLogger } from '@platform/http-kit';
import { type RunningLocalStripe, startLocalStripe } from '@platform/providers/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { acceptedQuote as acceptedQuoteOf } from '../../testing/accepted-quote.js';
import { type CrmSalesKit, type SalesTenant, startCrmSalesKit } from '../../testing/crm-sales-kit.js';
import { depositMarker } from './deposit-erp.js';

const KEY = `sk_test_${randomBytes(12).toString('hex')}`;
const WHSEC = `whsec_${randomBytes(16).toString('hex')}`;
const CARD = { number: '4242424242424242', expiry: '12/40', cvc: '123' };
let k: CrmSalesKit;
let stripe: RunningLocalStripe;
let gate: Server;
let open = true;

beforeAll(async () => {
  // No redelivery: a webhook the gate refuses is lost until the test re-sends it.
  stripe = await startLocalStripe({ secretKey: KEY, host: '127.0.0.1', port: 0, retryDelaysMs: [] });
  k = await startCrmSalesKit({
    STRIPE_SECRET_KEY: KEY,
    STRIPE_API_BASE: stripe.url,
    STRIPE_WEBHOOK_SECRET: WHSEC,
    TENANT_PUBLIC_ORIGIN: 'https://{host}',
  });
  const control = await k.kit.app.listen({ host: '127.0.0.1', port: 0 });
  gate = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (!open) return void res.writeHead(503).end();
      void fetch(`${control}/webhooks/payments`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': String(req.headers['stripe-signature']),
        },
        body: Buffer.concat(chunks),
      }).then(async (r) => res.writeHead(r.status).end(await r.text()));
    });
  });
  await new Promise<void>((r) => gate.listen(0, '127.0.0.1', r));
  stripe.addWebhookEndpoint(`http://127.0.0.1:${(gate.address() as AddressInfo).port}/`, {
    connect: true,
    secret: WHSEC,
  });
  // A's company charges 8.25 % sales tax on every line: the deposit is a share of the total with tax.
  const erp = k.a.erp.erp;
  const tax = await erp.create('account.tax', {
    name: 'State 8.25%',
    amount: 8.25,
    amount_type: 'percent',
    type_tax_use: 'sale',
  });
  const [company] = await erp.search('res.company', [], { limit: 1, order: 'sequence, id' });
  await erp.write('res.company', [company!], { account_sale_tax_id: tax });
  const c = await k.call('POST', `/api/tenants/${k.a.id}/payments/connect`, k.a.owner);
  await fetch(c.body.onboarding_url as string, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'business_name=Acme+Blinds',
    redirect: 'manual',
  });
  expect((await k.call('GET', `/api/tenants/${k.a.id}/payments`, k.a.owner)).body.account.state).toBe('connected');
}, 120_000);
afterAll(async () => {
  await k?.close();
  await stripe?.close();
  gate?.close();
});

const onHost = (t: SalesTenant) => ({ 'x-tenant-id': t.id });
/** A quote of three windows, sent and accepted on the portal. */
const acceptedQuote = (t: SalesTenant) => acceptedQuoteOf(k, t);

const portal = async (t: SalesTenant, token: string) =>
  (await k.call('GET', `/portal/quotes/${token}`, undefined, undefined, onHost(t))).body.quote;

async function payOnStandIn(t: SalesTenant, token: string): Promise<string> {
  const r = await k.call('POST', `/portal/quotes/${token}/deposit-checkout`, undefined, undefined, onHost(t));
  expect(r.status).toBe(200);
  stripe.pay(r.body.session_id as string, CARD);
  await stripe.flushWebhooks();
  return r.body.session_id as string;
}

const jobs = async (quoteId: string) =>
  (
    await k.kit.t.db.query(`SELECT id, status FROM outbox WHERE topic = $1 AND aggregate_id = $2`, [
      TOPIC_DEPOSIT_ERP,
      quoteId,
    ])
  ).rows;

/** The control plane's own relay, as control.server.ts runs it: one pass. */
const relayPass = () => k.kit.deps.payments.relay(createLogger('silent'), 'test-relay').tick();

/** What the tenant's ERP holds for the order: its state, its down-payment invoices, the deposit's payments. */
async function inErp(t: SalesTenant, order: number, quoteId: string) {
  const erp = t.erp.erp;
  const [o] = await erp.read('sale.order', [order], ['state', 'amount_total', 'invoice_ids']);
  const invoices = await erp.read('account.move', (o?.invoice_ids as number[]) ?? [], [
    'state',
    'move_type',
    'amount_total',
    'amount_residual',
    'payment_state',
  ]);
  const payments = await erp.searchRead('account.payment', [['ref', '=', depositMarker(quoteId)]], {
    fields: ['amount', 'state', 'journal_id'],
  });
  return { state: o?.state, total: Number(o?.amount_total), invoices, payments };
}

const cents = (major: number) => Math.round(major * 100);

describe('the deposit in the ERP', () => {
  it('confirms the order only once the card deposit is paid, and then invoices and pays it to the cent', async () => {
    const q = await acceptedQuote(k.a);
    expect(q.accepted.state).not.toBe('sale');
    expect(await portal(k.a, q.token)).toMatchObject({ deposit_state: 'due' });
    const before = await inErp(k.a, q.order, q.id);
    expect(before.state).not.toBe('sale');
    expect(before.invoices).toEqual([]);
    // The deposit is 50 % of the total with tax, rounded half up to the cent (docs/payments.md).
    expect(q.quote.amount_tax).toBeGreaterThan(0);
    const deposit = Math.floor((cents(q.quote.amount_total) * 50 + 50) / 100);
    expect(cents(q.quote.deposit)).toBe(deposit);

    await payOnStandIn(k.a, q.token);
    expect(await jobs(q.id)).toEqual([{ id: expect.anything(), status: 'pending' }]);
    expect((await inErp(k.a, q.order, q.id)).state).not.toBe('sale');
    expect(await relayPass()).toBe(1);

    const after = await inErp(k.a, q.order, q.id);
    expect(after.state).toBe('sale');
    expect(after.invoices).toHaveLength(1);
    expect(after.invoices[0]).toMatchObject({ state: 'posted', move_type: 'out_invoice', payment_state: 'paid' });
    expect(cents(Number(after.invoices[0]!.amount_total))).toBe(deposit);
    expect(cents(Number(after.invoices[0]!.amount_residual))).toBe(0);
    expect(after.payments).toHaveLength(1);
    expect(cents(Number(after.payments[0]!.amount))).toBe(deposit);
    const row = (
      await k.kit.t.db.query(
        'SELECT sale_order_id, invoice_id, erp_payment_id, erp_recorded_at FROM deposit_payments WHERE quote_id = $1',
        [q.id],
      )
    ).rows[0];
    expect(row).toMatchObject({
      sale_order_id: q.order,
      invoice_id: after.invoices[0]!.id,
      erp_payment_id: after.payments[0]!.id,
      erp_recorded_at: expect.any(Date),
    });
  });

  it('records one payment however often the webhook comes, and the customer back after it changes nothing', async () => {
    const q = await acceptedQuote(k.a);
    const session = await payOnStandIn(k.a, q.token);
    const event = stripe.events.find(
      (e: any) => e.type === 'checkout.session.completed' && e.data.object.id === session,
    );
    await stripe.resendEvent(event!['id'] as string);
    await stripe.resendEvent(event!['id'] as string);
    expect(await jobs(q.id)).toHaveLength(1);
    // The customer back after the webhook: the row is paid, nothing is asked or queued again.
    expect((await portal(k.a, q.token)).deposit_state).toBe('paid');
    expect(await jobs(q.id)).toHaveLength(1);
    await relayPass();
    await relayPass();
    const erp = await inErp(k.a, q.order, q.id);
    expect(erp.invoices).toHaveLength(1);
    expect(erp.payments).toHaveLength(1);
  });

  it('takes the customer back before the webhook as paid, and the late webhook adds nothing', async () => {
    const q = await acceptedQuote(k.a);
    open = false;
    const session = await payOnStandIn(k.a, q.token);
    open = true;
    expect(await jobs(q.id)).toEqual([]);
    // Back on the portal: the session is re-read from the provider and recorded through the same path.
    expect((await portal(k.a, q.token)).deposit_state).toBe('paid');
    expect(await jobs(q.id)).toHaveLength(1);
    const event = stripe.events.find(
      (e: any) => e.type === 'checkout.session.completed' && e.data.object.id === session,
    );
    expect(await stripe.resendEvent(event!['id'] as string)).toEqual([200]);
    expect(await jobs(q.id)).toHaveLength(1);
    await relayPass();
    const erp = await inErp(k.a, q.order, q.id);
    expect(erp.state).toBe('sale');
    expect(erp.payments).toHaveLength(1);
  });

  it('finds a webhook lost for good through the reconciliation, once', async () => {
    const q = await acceptedQuote(k.a);
    open = false;
    await payOnStandIn(k.a, q.token);
    open = true;
    expect(await jobs(q.id)).toEqual([]);
    const first = await k.kit.deps.payments.reconciler.runAll();
    expect(first.paid).toBeGreaterThanOrEqual(1);
    expect(await jobs(q.id)).toHaveLength(1);
    await k.kit.deps.payments.reconciler.runAll();
    expect(await jobs(q.id)).toHaveLength(1);
    await relayPass();
    const erp = await inErp(k.a, q.order, q.id);
    expect(erp.state).toBe('sale');
    expect(erp.invoices).toHaveLength(1);
    expect(erp.payments).toHaveLength(1);
  });

  it('resumes after the ERP payment step failed once, without a second invoice or payment', async () => {
    const q = await acceptedQuote(k.a);
    const real = k.a.erp.erp;
    let failures = 0;
    // The payment is made in the ERP but its reply is lost (a crash between the ERP write and the record).
    k.route(
      k.a.id,
      Object.assign(Object.create(real) as typeof real, {
        call: async (model: string, method: string, args: unknown[], kwargs?: Record<string, unknown>) => {
          const out = await real.call(model, method, args, kwargs);
          if (method === 'action_create_payments' && failures++ === 0) throw new Error('connection reset');
          return out;
        },
        search: async (model: string, domain: any, opts?: any) => {
          // The first look-up after the lost reply fails too: the job must give up and retry.
          if (model === 'account.payment' && failures === 1) {
            failures++;
            throw new Error('connection reset');
          }
          return real.search(model, domain, opts);
        },
      }),
    );
    try {
      await payOnStandIn(k.a, q.token);
      await relayPass();
      const [job] = await jobs(q.id);
      expect(job?.status).toBe('pending');
      await k.kit.t.db.query(`UPDATE outbox SET next_attempt_at = now() WHERE id = $1`, [job!.id]);
      await relayPass();
      expect((await jobs(q.id))[0]?.status).toBe('done');
    } finally {
      k.route(k.a.id, real);
    }
    const erp = await inErp(k.a, q.order, q.id);
    expect(erp.state).toBe('sale');
    expect(erp.invoices).toHaveLength(1);
    expect(erp.invoices[0]).toMatchObject({ payment_state: 'paid' });
    expect(erp.payments).toHaveLength(1);
  });

  it('confirms on acceptance as before when the tenant takes no cards', async () => {
    const q = await acceptedQuote(k.b);
    expect(q.accepted.state).toBe('sale');
    expect((await inErp(k.b, q.order, q.id)).state).toBe('sale');
    expect((await portal(k.b, q.token)).deposit_state).toBe('office');
  });
});
