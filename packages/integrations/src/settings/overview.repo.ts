/** SQL of the integrations overview: when the accounting sync last moved something for a tenant. */
import type { Queryable } from '@platform/db';

/** The latest invoice sent to the provider or payment registered from it; null before the first. */
export async function lastAccountingSync(db: Queryable, tenantId: string): Promise<Date | null> {
  const r = await db.query<{ at: Date | string | null }>(
    `SELECT max(at) AS at FROM (
       SELECT max(created_at) AS at FROM accounting_invoices WHERE tenant_id = $1
       UNION ALL SELECT max(created_at) FROM accounting_payments WHERE tenant_id = $1) s`,
    [tenantId],
  );
  const at = r.rows[0]?.at;
  return at ? new Date(at) : null;
}
