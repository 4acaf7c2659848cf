/** SQL of invoice_documents (migration 0330): the stored PDF of each posted invoice, by its ERP id. */
import type { Queryable } from '@platform/db';

export async function storedInvoicePdf(q: Queryable, tenantId: string, moveId: number): Promise<string | null> {
  const r = await q.query<{ pdf_key: string }>(
    'SELECT pdf_key FROM invoice_documents WHERE tenant_id = $1 AND move_id = $2',
    [tenantId, moveId],
  );
  return r.rows[0]?.pdf_key ?? null;
}

/** Keeps `key` unless another download kept one first; answers the key that is kept. */
export async function keepInvoicePdf(q: Queryable, tenantId: string, moveId: number, key: string): Promise<string> {
  await q.query(
    `INSERT INTO invoice_documents (tenant_id, move_id, pdf_key) VALUES ($1, $2, $3)
     ON CONFLICT (tenant_id, move_id) DO NOTHING`,
    [tenantId, moveId, key],
  );
  return (await storedInvoicePdf(q, tenantId, moveId))!;
}

/** Points the invoice at a new copy when the stored one was lost from the object store. */
export async function replaceInvoicePdf(q: Queryable, tenantId: string, moveId: number, key: string): Promise<void> {
  await q.query('UPDATE invoice_documents SET pdf_key = $3 WHERE tenant_id = $1 AND move_id = $2', [
    tenantId,
    moveId,
    key,
  ]);
}
