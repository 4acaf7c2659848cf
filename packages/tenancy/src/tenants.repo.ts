/**
 * The one owner of the `tenants` table (and the host → tenant lookup through `tenant_domains`):
 * every app asks here instead of running its own SQL on it. The control plane extends this module
 * (create, rename, suspend tenants) behind the same functions.
 */
import type { Queryable } from '@platform/db';

export interface TenantRow {
  id: string;
  slug: string;
  name: string;
  /** ERP database of the tenant (null: the platform's default ERP_DB). */
  erp_db: string | null;
  is_default: boolean;
  /** provisioning | active | suspended | deleted (migration 0100). */
  status: string;
}

const COLUMNS = 'id, slug, name, erp_db, is_default, status';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The default tenant of a single-tenant install, if it exists yet. */
export async function findDefaultTenant(db: Queryable): Promise<TenantRow | undefined> {
  return (await db.query<TenantRow>(`SELECT ${COLUMNS} FROM tenants WHERE is_default`)).rows[0];
}

/** Creates the default tenant on first start; concurrent starts (any host) converge on one row. */
export async function ensureDefaultTenant(db: Queryable, slug: string, name = 'Default'): Promise<TenantRow> {
  // The single-company install keeps every feature it has always had (as migration 0100 did for
  // existing installs): its default tenant is on the Enterprise plan.
  await db.query(
    `INSERT INTO tenants (slug, name, is_default, plan) VALUES ($1, $2, true, 'enterprise') ON CONFLICT DO NOTHING`,
    [slug, name],
  );
  const t = await findDefaultTenant(db);
  if (!t) throw new Error('default tenant missing after creation');
  return t;
}

export async function findTenantById(db: Queryable, id: string): Promise<TenantRow | undefined> {
  if (!UUID.test(id)) return undefined;
  return (await db.query<TenantRow>(`SELECT ${COLUMNS} FROM tenants WHERE id = $1::uuid`, [id])).rows[0];
}

export async function findTenantBySlug(db: Queryable, slug: string): Promise<TenantRow | undefined> {
  return (await db.query<TenantRow>(`SELECT ${COLUMNS} FROM tenants WHERE slug = $1`, [slug])).rows[0];
}

/** A tenant named by id (a UUID) or else by slug, as operators type it on the command line. */
export async function findTenantByIdOrSlug(db: Queryable, idOrSlug: string): Promise<TenantRow | undefined> {
  return UUID.test(idOrSlug) ? findTenantById(db, idOrSlug) : findTenantBySlug(db, idOrSlug);
}

/** The tenant a verified domain points at: active tenants only (provisioning, suspended and deleted ones resolve nowhere). */
export async function findTenantByDomain(db: Queryable, domain: string): Promise<TenantRow | undefined> {
  const r = await db.query<TenantRow>(
    `SELECT t.id, t.slug, t.name, t.erp_db, t.is_default, t.status FROM tenant_domains d JOIN tenants t ON t.id = d.tenant_id
      WHERE d.domain = $1 AND t.status = 'active'`,
    [domain],
  );
  return r.rows[0];
}

/** Every tenant, oldest first (the change feed polls each one's ERP). */
export async function listTenants(db: Queryable): Promise<TenantRow[]> {
  return (await db.query<TenantRow>(`SELECT ${COLUMNS} FROM tenants ORDER BY created_at`)).rows;
}
