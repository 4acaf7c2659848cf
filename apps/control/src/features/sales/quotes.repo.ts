/** SQL of the quotes the platform created (table sales_quotes, migration 0125). */
import type { FlaggedQuoteWindow } from '@platform/contracts/quote.js';
import type { Queryable } from '@platform/db';

import type { PricedLine } from './pricing.js';

/** A measured window the grid could not price (the wire shape, declared once in contracts). */
export type FlaggedWindow = FlaggedQuoteWindow;

export interface QuoteRequest {
  partner_id?: number;
  /** A quote made from a measure job's windows ("Send to office"): the job, and what it could not price. */
  measure_job_id?: string;
  flagged?: FlaggedWindow[];
  customer?: { name: string; email?: string; phone?: string; street?: string; city?: string; zip?: string };
  /** `measurement_id`: the measured window a line was priced from (a measure job's quote). */
  lines: (PricedLine & { measurement_id?: string })[];
  note?: string;
  lead_id?: number;
}

export interface QuoteRow {
  id: string;
  tenant_id: string;
  idempotency_key: string | null;
  fingerprint: string;
  request: QuoteRequest;
  erp_order_id: number | null;
  created_by: string | null;
  created_at: Date;
}

const COLUMNS = 'id, tenant_id, idempotency_key, fingerprint, request, erp_order_id, created_by, created_at';

/** Inserts the quote unless another request took the same Idempotency-Key first (then false). */
export async function insertQuote(q: Queryable, r: Omit<QuoteRow, 'erp_order_id' | 'created_at'>): Promise<boolean> {
  const res = await q.query(
    `INSERT INTO sales_quotes (id, tenant_id, idempotency_key, fingerprint, request, created_by)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (tenant_id, idempotency_key) DO NOTHING RETURNING id`,
    [r.id, r.tenant_id, r.idempotency_key, r.fingerprint, JSON.stringify(r.request), r.created_by],
  );
  return res.rows.length === 1;
}

export async function quoteById(q: Queryable, tenantId: string, id: string): Promise<QuoteRow | undefined> {
  const r = await q.query<QuoteRow>(`SELECT ${COLUMNS} FROM sales_quotes WHERE tenant_id = $1 AND id = $2`, [
    tenantId,
    id,
  ]);
  return r.rows[0];
}

export async function quoteByKey(q: Queryable, tenantId: string, key: string): Promise<QuoteRow | undefined> {
  const r = await q.query<QuoteRow>(
    `SELECT ${COLUMNS} FROM sales_quotes WHERE tenant_id = $1 AND idempotency_key = $2`,
    [tenantId, key],
  );
  return r.rows[0];
}

/** Replaces a quote's request (a measure job's draft brought up to date by a later send). */
export async function setRequest(q: Queryable, tenantId: string, id: string, request: QuoteRequest): Promise<void> {
  await q.query('UPDATE sales_quotes SET request = $3 WHERE tenant_id = $1 AND id = $2', [
    tenantId,
    id,
    JSON.stringify(request),
  ]);
}

/** Takes the lease on making the quote's ERP order; false while another request holds it (or it is made). */
export async function claimMaking(q: Queryable, tenantId: string, id: string, seconds: number): Promise<boolean> {
  const r = await q.query(
    `UPDATE sales_quotes SET making_until = now() + ($3::double precision * interval '1 second')
      WHERE tenant_id = $1 AND id = $2 AND erp_order_id IS NULL AND (making_until IS NULL OR making_until < now())
      RETURNING id`,
    [tenantId, id, seconds],
  );
  return r.rows.length === 1;
}

/** Removes a quote whose ERP order was refused (its portal links go with it). */
export async function deleteQuote(q: Queryable, tenantId: string, id: string): Promise<void> {
  await q.query('DELETE FROM sales_quotes WHERE tenant_id = $1 AND id = $2 AND erp_order_id IS NULL', [tenantId, id]);
}

export async function releaseMaking(q: Queryable, tenantId: string, id: string): Promise<void> {
  await q.query('UPDATE sales_quotes SET making_until = NULL WHERE tenant_id = $1 AND id = $2', [tenantId, id]);
}

export async function quoteByOrder(q: Queryable, tenantId: string, orderId: number): Promise<QuoteRow | undefined> {
  const r = await q.query<QuoteRow>(`SELECT ${COLUMNS} FROM sales_quotes WHERE tenant_id = $1 AND erp_order_id = $2`, [
    tenantId,
    orderId,
  ]);
  return r.rows[0];
}

export async function setErpOrder(q: Queryable, tenantId: string, id: string, orderId: number): Promise<void> {
  await q.query('UPDATE sales_quotes SET erp_order_id = $3, making_until = NULL WHERE tenant_id = $1 AND id = $2', [
    tenantId,
    id,
    orderId,
  ]);
}

export async function listQuotes(
  q: Queryable,
  tenantId: string,
  page: number,
  pageSize: number,
): Promise<{ rows: QuoteRow[]; total: number }> {
  const r = await q.query<QuoteRow>(
    `SELECT ${COLUMNS} FROM sales_quotes WHERE tenant_id = $1 ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`,
    [tenantId, pageSize, (page - 1) * pageSize],
  );
  const c = await q.query<{ n: string }>('SELECT count(*) AS n FROM sales_quotes WHERE tenant_id = $1', [tenantId]);
  return { rows: r.rows, total: Number(c.rows[0]!.n) };
}

/** The stored PDF the quote was first sent as (migration 0290); undefined when there is no such quote. */
export async function sentPdfKey(q: Queryable, tenantId: string, id: string): Promise<string | null | undefined> {
  const r = await q.query<{ sent_pdf_key: string | null }>(
    'SELECT sent_pdf_key FROM sales_quotes WHERE tenant_id = $1 AND id = $2',
    [tenantId, id],
  );
  return r.rows[0]?.sent_pdf_key;
}

/** Records the sent PDF unless one was recorded first (a racing send); answers the key kept. */
export async function keepSentPdf(
  q: Queryable,
  tenantId: string,
  id: string,
  key: string,
): Promise<string | undefined> {
  const r = await q.query<{ sent_pdf_key: string }>(
    `UPDATE sales_quotes SET sent_pdf_key = COALESCE(sent_pdf_key, $3) WHERE tenant_id = $1 AND id = $2
     RETURNING sent_pdf_key`,
    [tenantId, id, key],
  );
  return r.rows[0]?.sent_pdf_key;
}
