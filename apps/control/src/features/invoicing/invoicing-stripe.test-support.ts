/**
 * The invoicing tests' platform with the local Stripe stand-in: the control plane pointed at it, its
 * webhooks delivered to the control plane, tenant A's account connected through onboarding; and an
 * invoice of A paid in full by card through its pay link, its payment registered in the ERP.
 */
import { randomBytes } from 'node:crypto';

import type { InvoiceCardPaymentJob } from '@platform/contracts';
import { registerInvoicePayment } from '@platform/erp';
import { type RunningLocalStripe, startLocalStripe } from '@platform/providers/local';
import { expect } from 'vitest';

import { type CrmSalesKit, type SalesTenant, startCrmSalesKit } from '../../testing/crm-sales-kit.js';
import { acceptedOrder, completedJob } from './invoicing.test-support.js';

export interface StripeKit {
  k: CrmSalesKit;
  stripe: RunningLocalStripe;
  key: string;
  accountA: string;
  close(): Promise<void>;
}

export async function startInvoicingWithStripe(): Promise<StripeKit> {
  const key = `sk_test_${randomBytes(12).toString('hex')}`;
  const whsec = `whsec_${randomBytes(16).toString('hex')}`;
  const stripe = await startLocalStripe({ secretKey: key, host: '127.0.0.1', port: 0 });
  const k = await startCrmSalesKit({
    STRIPE_SECRET_KEY: key,
    STRIPE_API_BASE: stripe.url,
    STRIPE_WEBHOOK_SECRET: whsec,
    TENANT_PUBLIC_ORIGIN: 'https://{host}',
  });
  const url = await k.kit.app.listen({ host: '127.0.0.1', port: 0 });
  stripe.addWebhookEndpoint(`${url}/webhooks/payments`, { connect: true, secret: whsec });
  const c = await k.call('POST', `/api/tenants/${k.a.id}/payments/connect`, k.a.owner);
  const done = await fetch(c.body.onboarding_url as string, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'business_name=Acme+Blinds',
    redirect: 'manual',
  });
  expect(done.status).toBe(303);
  expect((await k.call('GET', `/api/tenants/${k.a.id}/payments`, k.a.owner)).body.account.state).toBe('connected');
  const close = async () => {
    await k.close();
    await stripe.close();
  };
  return { k, stripe, key, accountA: c.body.account_id as string, close };
}

/** The pay link the last invoice email carried. */
export async function payToken(k: CrmSalesKit, invoiceNumber: string): Promise<string> {
  const r = await k.kit.t.db.query<{ payload: unknown }>(
    `SELECT payload FROM outbox WHERE topic = 'email.transactional' ORDER BY id DESC`,
  );
  const texts = r.rows.map((x: { payload: unknown }) =>
    typeof x.payload === 'string' ? x.payload : JSON.stringify(x.payload),
  );
  const text = texts.find((t: string) => t.includes(invoiceNumber) && t.includes('/portal/invoice/'));
  expect(text, 'an invoice email').toBeDefined();
  return /\/portal\/invoice\/([A-Za-z0-9_-]{43})/.exec(text!)![1]!;
}

/** A's invoice paid in full with 4242 from its link; the card payment registered as the worker does. */
export async function invoicePaidByCard(s: StripeKit, t: SalesTenant) {
  const { k, stripe } = s;
  const { orderId } = await acceptedOrder(k, t);
  const jobId = await completedJob(k, t, orderId);
  const invoice = (await k.call('POST', `/jobs/${jobId}/invoice`, t.office)).body.invoice;
  const token = await payToken(k, invoice.number);
  const c = await k.call('POST', `/portal/invoices/${token}/checkout`, undefined, undefined, { 'x-tenant-id': t.id });
  expect(c.status, JSON.stringify(c.body)).toBe(200);
  stripe.pay(c.body.session_id, { number: '4242424242424242', expiry: '12/40', cvc: '123' });
  await stripe.flushWebhooks();
  const rows = await k.kit.t.db.query<{ payload: unknown }>(
    `SELECT payload FROM outbox WHERE topic = 'invoicing.card_payment'`,
  );
  const job = rows.rows
    .map(
      (x: { payload: unknown }) =>
        (typeof x.payload === 'string' ? JSON.parse(x.payload) : x.payload) as InvoiceCardPaymentJob,
    )
    .find((p) => p.invoiceId === invoice.id);
  expect(job, 'the card payment job').toBeDefined();
  if (!job) throw new Error('no card payment job');
  const paymentId = await registerInvoicePayment(t.erp.erp, {
    invoiceId: invoice.id,
    amount: job.amountMinor / 100,
    memo: `Card payment ${job.paymentIntentId}`,
  });
  return {
    invoiceId: invoice.id as number,
    paymentId,
    amountMinor: job.amountMinor as number,
    intent: job.paymentIntentId as string,
  };
}
