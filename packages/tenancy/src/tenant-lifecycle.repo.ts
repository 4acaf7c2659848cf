/**
 * The tenant's lifecycle rows (migration 0100: status, plan, site name, helpdesk team): created
 * `provisioning`, then `active`, `suspended`, `deleted`. Run as the owner role by provisioning and
 * the operator's commands (they act on a tenant from outside it); members read their tenant through
 * `withTenant` (the `tenant_self` policy).
 */
import type { Queryable } from '@platform/db';

export type TenantStatus = 'provisioning' | 'active' | 'suspended' | 'deleted';
import type { PlanId } from './plans.js';

export interface TenantRecord {
  id: string;
  slug: string;
  name: string;
  status: TenantStatus;
  plan: PlanId;
  erp_db: string | null;
  site_name: string | null;
  helpdesk_team_id: number | null;
  is_default: boolean;
  created_at: string;
  suspended_at: string | null;
  deleted_at: string | null;
  erp_purged_at: string | null;
}

const COLUMNS = `id, slug, name, status, plan, erp_db, site_name, helpdesk_team_id, is_default, created_at, suspended_at,
  deleted_at, erp_purged_at`;
const T_COLUMNS = COLUMNS.split(',')
  .map((c) => `t.${c.trim()}`)
  .join(', ');

export async function getTenantRecord(q: Queryable, id: string): Promise<TenantRecord | undefined> {
  return (await q.query<TenantRecord>(`SELECT ${COLUMNS} FROM tenants WHERE id = $1::uuid`, [id])).rows[0];
}

export async function getTenantRecordBySlug(q: Queryable, slug: string): Promise<TenantRecord | undefined> {
  return (await q.query<TenantRecord>(`SELECT ${COLUMNS} FROM tenants WHERE slug = $1`, [slug])).rows[0];
}

export async function listTenantRecords(q: Queryable): Promise<TenantRecord[]> {
  return (await q.query<TenantRecord>(`SELECT ${COLUMNS} FROM tenants ORDER BY created_at, slug`)).rows;
}

/** Reserves the slug with a `provisioning` row; an existing row of that slug is returned as it is. */
export async function insertProvisioningTenant(
  q: Queryable,
  t: { slug: string; name: string; plan: PlanId; erpDb: string },
): Promise<{ record: TenantRecord; created: boolean }> {
  const r = await q.query<TenantRecord>(
    `INSERT INTO tenants (slug, name, plan, status, erp_db, site_name) VALUES ($1, $2, $3, 'provisioning', $4, $5)
     ON CONFLICT (slug) DO NOTHING RETURNING ${COLUMNS}`,
    [t.slug, t.name, t.plan, t.erpDb, t.name],
  );
  if (r.rows[0]) return { record: r.rows[0], created: true };
  return { record: (await getTenantRecordBySlug(q, t.slug))!, created: false };
}

/**
 * Takes back a reservation that never became a tenant (a failed sign-up): only while it is still
 * `provisioning`, so an active tenant can never be deleted this way. False when nothing was deleted.
 */
export async function deleteProvisioningTenant(q: Queryable, id: string): Promise<boolean> {
  const r = await q.query(`DELETE FROM tenants WHERE id = $1::uuid AND status = 'provisioning'`, [id]);
  return r.rowCount > 0;
}

/** Moves the tenant to another plan (the catalogue in plans.ts); false when there is no such tenant. */
export async function setTenantPlan(q: Queryable, id: string, plan: PlanId): Promise<boolean> {
  const r = await q.query('UPDATE tenants SET plan = $2, updated_at = now() WHERE id = $1::uuid', [id, plan]);
  return r.rowCount > 0;
}

export async function setTenantErpDb(q: Queryable, id: string, erpDb: string): Promise<void> {
  await q.query('UPDATE tenants SET erp_db = $2, updated_at = now() WHERE id = $1', [id, erpDb]);
}

/** Moves the tenant to `to` from one of `from`; false when it was in none of them. */
export async function setTenantStatus(
  q: Queryable,
  id: string,
  from: TenantStatus[],
  to: TenantStatus,
): Promise<boolean> {
  const r = await q.query(
    `UPDATE tenants SET status = $3, updated_at = now(),
       suspended_at = CASE WHEN $3 = 'suspended' THEN now() WHEN $3 = 'active' THEN NULL ELSE suspended_at END,
       deleted_at = CASE WHEN $3 = 'deleted' THEN now() ELSE deleted_at END
     WHERE id = $1 AND status = ANY($2::text[])`,
    [id, from, to],
  );
  return r.rowCount > 0;
}

/** A deleted tenant gives its domains back (another tenant may claim them); returns how many. */
export async function releaseTenantDomains(q: Queryable, id: string): Promise<number> {
  return (await q.query('DELETE FROM tenant_domains WHERE tenant_id = $1', [id])).rowCount;
}

/** Deleted tenants whose embedded ERP database is due to be dropped (deleted before `before`). */
export async function tenantsToPurge(q: Queryable, before: Date): Promise<TenantRecord[]> {
  return (
    await q.query<TenantRecord>(
      `SELECT ${T_COLUMNS} FROM tenants t JOIN tenant_erp_routing r ON r.tenant_id = t.id
        WHERE t.status = 'deleted' AND t.deleted_at < $1 AND t.erp_purged_at IS NULL AND r.kind = 'embedded'
        ORDER BY t.deleted_at`,
      [before],
    )
  ).rows;
}

export async function markErpPurged(q: Queryable, id: string): Promise<void> {
  await q.query('UPDATE tenants SET erp_purged_at = now(), updated_at = now() WHERE id = $1', [id]);
}
