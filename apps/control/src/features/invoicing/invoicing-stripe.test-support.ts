/**
 * What the invoicing tests with the local Stripe stand-in (testing/stripe-kit.ts) start from: the pay
 * link an invoice email carried, and an invoice of A paid in full by card through it, its payment
 * registered in the ERP.
 */
import type { InvoiceCardPaymentJob } from '@platform/contracts';
import { registerInvoicePayment } from '@platform/erp';
import { expect } from 'vitest';

import type { CrmSalesKit, SalesTenant } from '../../testing/crm-sales-kit.js';
import type { StripeKit } from '../../testing/stripe-kit.js';
import { acceptedOrder, completedJob } from './invoicing.test-support.js';

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
