import type { Db } from '@platform/db';

export interface TenantRow {
  id: string;
  slug: string;
  name: string;
  erp_db: string | null;
  is_default: boolean;
}

export async function findTenantByDomain(db: Db, domain: string): Promise<TenantRow | undefined> {
  const r = await db.query<TenantRow>(
    `SELECT t.id, t.slug, t.name, t.erp_db, t.is_default FROM tenant_domains d JOIN tenants t ON t.id = d.tenant_id WHERE d.domain = $1`,
    [domain],
  );
  return r.rows[0];
}

export async function findDefaultTenant(db: Db): Promise<TenantRow | undefined> {
  const r = await db.query<TenantRow>('SELECT id, slug, name, erp_db, is_default FROM tenants WHERE is_default');
  return r.rows[0];
}

/** Creates the default tenant on first start; concurrent starts converge on one row. */
export async function ensureDefaultTenant(db: Db, slug: string, name: string): Promise<TenantRow> {
  await db.query(
    `INSERT INTO tenants (slug, name, is_default) VALUES ($1, $2, true) ON CONFLICT DO NOTHING`,
    [slug, name],
  );
  const t = await findDefaultTenant(db);
  if (!t) throw new Error('default tenant missing after creation');
  return t;
}
