/**
 * Follow-ups that no longer need sending, asked of the ERP (the system of record) before the sender
 * claims its rows, never inside that transaction (the embedded ERP may share the database): a quote
 * follow-up whose order is no longer a quotation (accepted or cancelled), an invoice reminder whose
 * invoice has nothing left to pay. Keyed `<kind>:<subject id>`, with the reason the timeline shows.
 * Also which due follow-ups' quotes the customer opened in the portal (the portal feature's record).
 */
import { type Db, type Queryable, withTenant } from '@platform/db';
import type { Erp } from '@platform/erp';

import * as repo from './messages.repo.js';

/** When each quote was first opened in the portal (absent: never). */
export type QuotesOpened = (tx: Queryable, tenantId: string, quoteIds: string[]) => Promise<Map<string, Date>>;

export interface FollowUpFacts {
  /** `<kind>:<subject id>` → why it is no longer sent. */
  settled: Map<string, string>;
  /** Quote id → when the customer first opened it. */
  opened: Map<string, Date>;
}

export async function followUpFacts(
  db: Db,
  erp: () => Promise<Erp>,
  tenantId: string,
  now: Date,
  quotesOpened: QuotesOpened,
): Promise<FollowUpFacts> {
  const [quotes, invoices, opened] = await withTenant(db, tenantId, async (tx) => {
    const due = await repo.dueOfKind(tx, tenantId, now, 'quote_follow_up');
    const ids = due.map((q) => q.subject_id);
    return [
      due,
      await repo.dueOfKind(tx, tenantId, now, 'invoice_reminder'),
      await quotesOpened(tx, tenantId, ids),
    ] as const;
  });
  const out = new Map<string, string>();
  if (!quotes.length && !invoices.length) return { settled: out, opened };
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
  return { settled: out, opened };
}
