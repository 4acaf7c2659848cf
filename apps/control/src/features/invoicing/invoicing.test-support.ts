/**
 * What the invoicing tests start from: a quote sent and accepted on the portal whose order is
 * confirmed, with (by default) half its total paid as a deposit the way the office records one
 * (POST /sales/quotes/{id}/deposit, then the control plane's deposit job: the order confirmed, its
 * down-payment invoice posted and paid), and the completed job of that order.
 */
import { createLogger } from '@platform/http-kit';
import { expect } from 'vitest';

import type { CrmSalesKit, SalesTenant } from '../../testing/crm-sales-kit.js';
import { png } from '../../testing/png.js';

const window = { product_code: 'wood-blind', room: 'Office', width_in: 46, drop_in: 58.875, mount: 'outside' };

export async function acceptedOrder(
  k: CrmSalesKit,
  t: SalesTenant,
  opts: { deposit?: boolean; customer?: string } = {},
): Promise<{ orderId: number; deposit: number; quoteId: string }> {
  const customer = opts.customer ?? 'Priya Raman';
  const q = await k.call('POST', '/sales/quotes', t.office, {
    customer: { name: customer, email: 'priya@example.com' },
    lines: [{ ...window, colour: 'Walnut', options: [] }],
  });
  expect(q.status, JSON.stringify(q.body)).toBe(201);
  const sent = await k.call('POST', `/sales/quotes/${q.body.id}/send`, t.office);
  const acc = await k.call(
    'POST',
    `/portal/quotes/${sent.body.token}/accept`,
    undefined,
    { name: customer.split(' ')[0], signature_png_base64: png() },
    { 'x-tenant-id': t.id },
  );
  expect(acc.status, JSON.stringify(acc.body)).toBe(200);
  const quote = (await k.call('GET', `/sales/quotes/${q.body.id}`, t.office)).body;
  const orderId = quote.sale_order_id as number;
  if (opts.deposit === false) return { orderId, deposit: 0, quoteId: q.body.id };
  const amount = Math.round((quote.amount_total as number) * 50);
  const dep = await k.call('POST', `/sales/quotes/${q.body.id}/deposit`, t.office, {
    method: 'cash',
    amount_minor: amount,
  });
  expect(dep.status, JSON.stringify(dep.body)).toBe(201);
  await k.kit.deps.payments.relay(createLogger('silent'), 'invoicing-test').tick();
  const [o] = await t.erp.erp.read('sale.order', [orderId], ['state']);
  expect(o!.state).toBe('sale');
  return { orderId, deposit: amount / 100, quoteId: q.body.id };
}

export async function completedJob(k: CrmSalesKit, t: SalesTenant, orderId: number): Promise<string> {
  const job = await k.call('POST', '/jobs', t.office, {
    customer: { name: 'Priya Raman', email: 'priya@example.com' },
    address: { street: '1 Main St', city: 'Denver', zip: '80202' },
    windows: [],
    sale_order_id: orderId,
  });
  expect(job.status, JSON.stringify(job.body)).toBe(201);
  const done = await k.call('POST', `/jobs/${job.body.id}/complete`, t.office, { resolution: 'Fitted and tested.' });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return job.body.id as string;
}
