/**
 * Follow-ups that no longer need sending, asked of the ERP (the system of record) before the sender
 * claims its rows, never inside that transaction (the embedded ERP may share the database): a quote
 * follow-up whose order is no longer a quotation (accepted or cancelled), an invoice reminder whose
 * invoice has nothing left to pay. Keyed `<kind>:<subject id>`, with the reason the timeline shows.
 */
import { type Db, withTenant } from '@platform/db';
import type { Erp } from '@platform/erp';

import * as repo from './messages.repo.js';

export async function settledFollowUps(
  db: Db,
  erp: () => Promise<Erp>,
  tenantId: string,
  now: Date,
): Promise<Map<string, string>> {
  const [quotes, invoices] = await withTenant(db, tenantId, async (tx) => [
    await repo.dueOfKind(tx, tenantId, now, 'quote_follow_up'),
    await repo.dueOfKind(tx, tenantId, now, 'invoice_reminder'),
  ]);
  const out = new Map<string, string>();
  if (!quotes.length && !invoices.length) return out;
  const e = await erp();
  const orders = quotes.flatMap((q) => (q.sale_order_id ? [q.sale_order_id] : []));
  const open = new Set(
    (orders.length ? await e.read('sale.order', [...new Set(orders)], ['state']) : [])
      .filter((o) => o.state === 'draft' || o.state === 'sent')
      .map((o) => Number(o.id)),
  );
  for (const q of quotes)
    if (q.sale_order_id && !open.has(q.sale_order_id))
      out.set(`quote_follow_up:${q.subject_id}`, 'the quote was answered');
  const ids = invoices.map((i) => Number(i.subject_id)).filter((n) => Number.isInteger(n) && n > 0);
  for (const m of ids.length ? await e.read('account.move', ids, ['amount_residual', 'state']) : [])
    if (Number(m.amount_residual) <= 0 || m.state === 'cancel')
      out.set(`invoice_reminder:${m.id}`, 'the invoice was paid');
  return out;
}
