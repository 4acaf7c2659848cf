/** SQL of plan enforcement: the tenant's monthly job counter (the plan is tenancy's, the member counts the accounts'). */
import type { Queryable } from '@platform/db';

/** Takes one job of the month if the count is under `limit` (null: no limit); false when it is not. */
export async function takeJob(q: Queryable, tenantId: string, month: string, limit: number | null): Promise<boolean> {
  const r = await q.query(
    `INSERT INTO tenant_job_counts AS c (tenant_id, month, jobs) VALUES ($1::uuid, $2::date, 1)
     ON CONFLICT (tenant_id, month) DO UPDATE SET jobs = c.jobs + 1
       WHERE $3::int IS NULL OR c.jobs < $3::int
     RETURNING jobs`,
    [tenantId, month, limit],
  );
  // The first job of a month inserts; a limit of 0 would still need refusing.
  return r.rowCount > 0 && (limit === null || limit > 0);
}

export async function jobsInMonth(q: Queryable, tenantId: string, month: string): Promise<number> {
  const r = await q.query<{ jobs: number }>(
    'SELECT jobs FROM tenant_job_counts WHERE tenant_id = $1::uuid AND month = $2::date',
    [tenantId, month],
  );
  return r.rows[0]?.jobs ?? 0;
}
