/** SQL of plan enforcement: the tenant's plan, its member counts and its monthly job counter. */
import type { Queryable } from '@platform/db';

export async function planOf(q: Queryable, tenantId: string): Promise<string | undefined> {
  return (await q.query<{ plan: string }>('SELECT plan FROM tenants WHERE id = $1::uuid', [tenantId])).rows[0]?.plan;
}

export async function setPlan(q: Queryable, tenantId: string, plan: string): Promise<boolean> {
  const r = await q.query('UPDATE tenants SET plan = $2, updated_at = now() WHERE id = $1::uuid', [tenantId, plan]);
  return r.rowCount > 0;
}

export async function memberCounts(q: Queryable, tenantId: string): Promise<{ users: number; technicians: number }> {
  const r = await q.query<{ users: number; technicians: number }>(
    `SELECT count(*)::int AS users, count(*) FILTER (WHERE role = 'technician')::int AS technicians
       FROM tenant_memberships WHERE tenant_id = $1::uuid`,
    [tenantId],
  );
  return r.rows[0] ?? { users: 0, technicians: 0 };
}

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
