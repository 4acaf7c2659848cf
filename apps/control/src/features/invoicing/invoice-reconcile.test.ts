/**
 * An invoice's card payment whose webhook never came: the stand-in has no endpoint, so the event is
 * lost for good. The reconciliation pass asks the provider about open checkouts older than five
 * minutes, pays the row and queues the one ERP payment; a second pass (or the webhook after all)
 * adds nothing; a checkout still open at the provider stays open.
 */
import { randomBytes } from 'node:crypto';

import { type RunningLocalStripe, startLocalStripe } from '@platform/providers/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type CrmSalesKit, startCrmSalesKit } from '../../testing/crm-sales-kit.js';
import { acceptedOrder } from './invoicing.test-support.js';

const KEY = `sk_test_${randomBytes(12).toString('hex')}`;
let k: CrmSalesKit;
let stripe: RunningLocalStripe;
let aheadMs = 0;
const clock = { now: () => new Date(Date.now() + aheadMs) };

beforeAll(async () => {
  stripe = await startLocalStripe({ secretKey: KEY, host: '127.0.0.1', port: 0 });
  k = await startCrmSalesKit(
    {
      STRIPE_SECRET_KEY: KEY,
      STRIPE_API_BASE: stripe.url,
      STRIPE_WEBHOOK_SECRET: `whsec_${randomBytes(8).toString('hex')}`,
    },
    clock,
  );
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
});

/** A posted final invoice of a completed job, and its pay link's token. */
async function invoiceWithLink(): Promise<{ id: number; token: string }> {
  const { orderId } = await acceptedOrder(k, k.a, { customer: 'Lost Hook' });
  const job = await k.call('POST', '/jobs', k.a.office, {
    customer: { name: 'Lost Hook' },
    address: { street: '5 Main St', city: 'Denver', zip: '80202' },
    windows: [],
    sale_order_id: orderId,
  });
  await k.call('POST', `/jobs/${job.body.id}/complete`, k.a.office, { resolution: 'Fitted.' });
  const inv = await k.call('POST', `/jobs/${job.body.id}/invoice`, k.a.office);
  expect(inv.status, JSON.stringify(inv.body)).toBe(201);
  const mails = await k.kit.t.db.query(`SELECT payload FROM outbox WHERE topic = 'email.transactional'`);
  const text = mails.rows
    .map((r: any) => JSON.stringify(r.payload))
    .find((t: string) => t.includes(inv.body.invoice.number));
  return { id: inv.body.invoice.id, token: /\/portal\/invoice\/([A-Za-z0-9_-]{43})/.exec(text!)![1]! };
}

const checkout = (token: string) =>
  k.call('POST', `/portal/invoices/${token}/checkout`, undefined, undefined, { 'x-tenant-id': k.a.id });
const cardJobs = async (invoiceId: number) =>
  (await k.kit.t.db.query(`SELECT payload FROM outbox WHERE topic = 'invoicing.card_payment'`)).rows
    .map((r: any) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload))
    .filter((p: any) => p.invoiceId === invoiceId);

describe('a card payment whose webhook was lost', () => {
  it('is found by the reconciliation pass once the checkout is five minutes old, and queued once', async () => {
    const paid = await invoiceWithLink();
    const open = await invoiceWithLink();
    const { session_id } = (await checkout(paid.token)).body;
    expect((await checkout(open.token)).status).toBe(200);
    stripe.pay(session_id, { number: '4242424242424242', expiry: '12/40', cvc: '123' });
    await stripe.flushWebhooks();
    const reconciler = k.kit.deps.invoicing.reconciler;
    // Too young: the webhook may still come.
    expect(await reconciler.runOnce()).toEqual({ paid: 0 });
    expect(await cardJobs(paid.id)).toEqual([]);
    aheadMs = 6 * 60_000;
    expect(await reconciler.runOnce()).toEqual({ paid: 1 });
    expect(await cardJobs(paid.id)).toEqual([expect.objectContaining({ sessionId: session_id })]);
    expect(await reconciler.runOnce()).toEqual({ paid: 0 });
    expect(await cardJobs(paid.id)).toHaveLength(1);
    expect(await cardJobs(open.id)).toEqual([]);
    const states = await k.kit.t.db.query('SELECT invoice_id, status FROM invoice_checkouts ORDER BY invoice_id');
    expect(states.rows.map((r: any) => [r.invoice_id, r.status])).toEqual(
      expect.arrayContaining([
        [paid.id, 'paid'],
        [open.id, 'open'],
      ]),
    );
  });
});
