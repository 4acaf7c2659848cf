/**
 * The tenant's platform subdomain `<slug>.<TENANTS_HOST>`, created by provisioning: active at once
 * (the platform's wildcard certificate covers it) and primary when the tenant has no primary yet.
 * Idempotent, for a provisioning that runs twice. (The domains feature owns the rest of
 * tenant_domains; this is the one row provisioning writes.)
 */
import type { Queryable } from '@platform/db';

export async function ensureSubdomain(q: Queryable, tenantId: string, host: string): Promise<void> {
  await q.query(
    `INSERT INTO tenant_domains (tenant_id, domain, domain_type, is_primary, ssl_status)
     SELECT $1, $2, 'subdomain', NOT EXISTS (SELECT 1 FROM tenant_domains WHERE tenant_id = $1 AND is_primary), 'active'
     ON CONFLICT (domain) DO NOTHING`,
    [tenantId, host.toLowerCase()],
  );
}
