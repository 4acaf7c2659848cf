/** SQL of the quotes' sends (table sales_quote_sends, migration 0174). */
import type { Queryable } from '@platform/db';

export interface QuoteSendRow {
  send_key: string;
  portal_link_id: string;
  emailed_to: string | null;
  texted_to: string | null;
}

/** Records a send; false when a send with this key was recorded first (a retry, or a racing twin). */
export async function insertSend(
  q: Queryable,
  s: QuoteSendRow & { tenant_id: string; quote_id: string; created_by: string },
): Promise<boolean> {
  const r = await q.query(
    `INSERT INTO sales_quote_sends (tenant_id, quote_id, send_key, portal_link_id, emailed_to, texted_to, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING send_key`,
    [s.tenant_id, s.quote_id, s.send_key, s.portal_link_id, s.emailed_to, s.texted_to, s.created_by],
  );
  return r.rows.length === 1;
}

export async function sendByKey(
  q: Queryable,
  tenantId: string,
  quoteId: string,
  key: string,
): Promise<QuoteSendRow | undefined> {
  const r = await q.query<QuoteSendRow>(
    `SELECT send_key, portal_link_id, emailed_to, texted_to FROM sales_quote_sends
      WHERE tenant_id = $1 AND quote_id = $2 AND send_key = $3`,
    [tenantId, quoteId, key],
  );
  return r.rows[0];
}
