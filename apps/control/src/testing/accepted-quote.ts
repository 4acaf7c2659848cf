/**
 * A three-window quote of the seeded wood blind, sent and accepted on the portal by its customer: what
 * the deposit's tests and bench:payments start from (with a card deposit due, its order waits).
 */
import { randomBytes } from 'node:crypto';

import type { CrmSalesKit, SalesTenant } from './crm-sales-kit.js';
import { png } from './png.js';

const window = (room: string, width_in: number) => ({
  product_code: 'wood-blind',
  room,
  width_in,
  drop_in: 58.875,
  mount: 'outside',
  colour: 'Walnut',
  options: [],
});

export async function acceptedQuote(k: CrmSalesKit, t: SalesTenant, customer = 'Priya Raman') {
  const q = await k.call('POST', '/sales/quotes', t.office, {
    customer: { name: customer, email: `customer-${randomBytes(4).toString('hex')}@example.com` },
    lines: [window('Office', 46), window('Kitchen', 35.5), window('Den', 27.125)],
  });
  const sent = await k.call('POST', `/sales/quotes/${q.body.id}/send`, t.office);
  const token = sent.body.token as string;
  const accepted = await k.call(
    'POST',
    `/portal/quotes/${token}/accept`,
    undefined,
    { name: customer.split(' ')[0], signature_png_base64: png() },
    { 'x-tenant-id': t.id },
  );
  if (accepted.status !== 200) throw new Error(`accept: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  const quote = (await k.call('GET', `/sales/quotes/${q.body.id}`, t.office)).body;
  return { id: q.body.id as string, token, order: quote.sale_order_id as number, accepted: accepted.body, quote };
}
