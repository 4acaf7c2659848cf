/**
 * `tenant_erp_routing` (migration 0105): where a tenant's ERP lives and the service account that
 * reaches it. The API key is sealed with the platform's secret box; its AAD binds it to the tenant
 * and column, so a sealed value copied onto another tenant's row does not open.
 */
import type { Queryable } from '@platform/db';
import type { SecretBox } from '@platform/secrets';

export type ErpKind = 'embedded' | 'odoo';

export interface ErpRouting {
  tenantId: string;
  kind: ErpKind;
  url: string;
  db: string;
  login: string;
  apiKey: string;
  updatedAt: string;
}

interface Row {
  tenant_id: string;
  kind: ErpKind;
  erp_url: string;
  erp_db: string;
  service_login: string;
  api_key_sealed: string;
  updated_at: Date | string;
}

export const routingKeyAad = (tenantId: string) => `tenant_erp_routing:${tenantId}:api_key`;

/** The tenant's routing (API key opened), or undefined: the tenant uses the default connection. */
export async function getErpRouting(q: Queryable, box: SecretBox, tenantId: string): Promise<ErpRouting | undefined> {
  const r = await q.query<Row>(
    'SELECT tenant_id, kind, erp_url, erp_db, service_login, api_key_sealed, updated_at FROM tenant_erp_routing WHERE tenant_id = $1',
    [tenantId],
  );
  const row = r.rows[0];
  if (!row) return undefined;
  return {
    tenantId: row.tenant_id,
    kind: row.kind,
    url: row.erp_url,
    db: row.erp_db,
    login: row.service_login,
    apiKey: box.open(row.api_key_sealed, routingKeyAad(tenantId)),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** Creates or replaces the routing of a tenant (provisioning, `tenants route`); owner role only. */
export async function putErpRouting(q: Queryable, box: SecretBox, r: Omit<ErpRouting, 'updatedAt'>): Promise<void> {
  await q.query(
    `INSERT INTO tenant_erp_routing (tenant_id, kind, erp_url, erp_db, service_login, api_key_sealed)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (tenant_id) DO UPDATE SET kind = EXCLUDED.kind, erp_url = EXCLUDED.erp_url, erp_db = EXCLUDED.erp_db,
       service_login = EXCLUDED.service_login, api_key_sealed = EXCLUDED.api_key_sealed, updated_at = now()`,
    [r.tenantId, r.kind, r.url, r.db, r.login, box.seal(r.apiKey, routingKeyAad(r.tenantId))],
  );
}

/**
 * What a TenantErps cache checks on every call: the routing's version (its update time and key
 * digest; undefined without routing) and the tenant's `erp_db` (the database of an unrouted tenant
 * on the default connection). undefined: no such tenant.
 */
export async function erpRoutingVersion(
  q: Queryable,
  tenantId: string,
): Promise<{ version: string | undefined; erpDb: string | null } | undefined> {
  const r = await q.query<{ v: string | null; erp_db: string | null }>(
    `SELECT to_char(r.updated_at, 'YYYY-MM-DD"T"HH24:MI:SS.US') || ':' || md5(r.api_key_sealed) AS v, t.erp_db
       FROM tenants t LEFT JOIN tenant_erp_routing r ON r.tenant_id = t.id WHERE t.id = $1::uuid`,
    [tenantId],
  );
  const row = r.rows[0];
  return row ? { version: row.v ?? undefined, erpDb: row.erp_db } : undefined;
}
