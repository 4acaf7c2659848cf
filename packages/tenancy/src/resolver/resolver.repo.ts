/**
 * SQL of host → tenant resolution. Runs as the owning role on purpose: finding which tenant a host
 * belongs to happens before any tenant is known, so row-level security cannot scope it.
 */
import type { Queryable } from '@platform/db';

export interface ResolvedTenant {
  tenantId: string;
  slug: string;
  name: string;
  /** The `SITE:` name: tenants.site_name, else tenant_settings.company_name, else tenants.name. */
  siteName: string;
  helpdeskTeamId: number | null;
  /** The tenant's ERP database (null: the platform's default). */
  erpDb: string | null;
  isDefault: boolean;
}

/** What the queries return: the resolved tenant and whether its site name was set, not just its name. */
export type TenantLookup = ResolvedTenant & { siteNameSet: boolean };

interface Row {
  id: string;
  slug: string;
  name: string;
  site_name: string | null;
  helpdesk_team_id: number | null;
  erp_db: string | null;
  is_default: boolean;
}

const SELECT = `SELECT t.id, t.slug, t.name, COALESCE(NULLIF(t.site_name, ''), NULLIF(s.company_name, '')) AS site_name,
       t.helpdesk_team_id, t.erp_db, t.is_default
  FROM tenants t LEFT JOIN tenant_settings s ON s.tenant_id = t.id`;

const toResolved = (r: Row | undefined): TenantLookup | undefined =>
  r && {
    tenantId: r.id,
    slug: r.slug,
    name: r.name,
    siteName: r.site_name ?? r.name,
    siteNameSet: r.site_name !== null,
    helpdeskTeamId: r.helpdesk_team_id,
    erpDb: r.erp_db,
    isDefault: r.is_default,
  };

/** An active tenant by slug (its platform subdomain). */
export async function activeTenantBySlug(db: Queryable, slug: string): Promise<TenantLookup | undefined> {
  return toResolved((await db.query<Row>(`${SELECT} WHERE t.slug = $1 AND t.status = 'active'`, [slug])).rows[0]);
}

/** An active tenant by one of its custom domains whose certificate is active. */
export async function activeTenantByCustomDomain(db: Queryable, domain: string): Promise<TenantLookup | undefined> {
  const r = await db.query<Row>(
    `${SELECT} JOIN tenant_domains d ON d.tenant_id = t.id
      WHERE d.domain = $1 AND d.domain_type = 'custom' AND d.ssl_status = 'active' AND t.status = 'active'`,
    [domain],
  );
  return toResolved(r.rows[0]);
}

/** The default tenant of the single-company install, while active. */
export async function activeDefaultTenant(db: Queryable): Promise<TenantLookup | undefined> {
  return toResolved((await db.query<Row>(`${SELECT} WHERE t.is_default AND t.status = 'active'`)).rows[0]);
}
