/**
 * SQL of tenant_domains for a tenant's own requests: run inside withTenant (row-level security
 * keeps every statement to that tenant), with tenant_id in each WHERE as well so a mistake in the
 * scope can never widen a statement.
 */
import type { Queryable } from '@platform/db';

export type DomainType = 'subdomain' | 'custom';
export type SslStatus = 'pending' | 'active' | 'failed';

export interface TenantDomainRow {
  id: string;
  tenant_id: string;
  domain: string;
  domain_type: DomainType;
  is_primary: boolean;
  ssl_status: SslStatus;
  cname_seen_at: Date | null;
  last_checked_at: Date | null;
  check_error: string | null;
  failure_reason: string | null;
  verify_started_at: Date;
  created_at: Date;
}

const COLUMNS = `id, tenant_id, domain, domain_type, is_primary, ssl_status, cname_seen_at, last_checked_at,
  check_error, failure_reason, verify_started_at, created_at`;

export async function listDomains(tx: Queryable, tenantId: string): Promise<TenantDomainRow[]> {
  return (
    await tx.query<TenantDomainRow>(
      `SELECT ${COLUMNS} FROM tenant_domains WHERE tenant_id = $1 ORDER BY domain_type DESC, created_at, domain`,
      [tenantId],
    )
  ).rows;
}

export async function findDomain(tx: Queryable, tenantId: string, id: string): Promise<TenantDomainRow | undefined> {
  return (
    await tx.query<TenantDomainRow>(`SELECT ${COLUMNS} FROM tenant_domains WHERE tenant_id = $1 AND id = $2`, [
      tenantId,
      id,
    ])
  ).rows[0];
}

/** Serialises one tenant's domain changes (the one-primary rule across concurrent requests). */
export async function lockTenantDomains(tx: Queryable, tenantId: string): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext('tenant_domains:' || $1))`, [tenantId]);
}

export async function clearPrimary(tx: Queryable, tenantId: string): Promise<void> {
  await tx.query(
    'UPDATE tenant_domains SET is_primary = false, updated_at = now() WHERE tenant_id = $1 AND is_primary',
    [tenantId],
  );
}

export async function hasPrimary(tx: Queryable, tenantId: string): Promise<boolean> {
  return (await tx.query('SELECT 1 FROM tenant_domains WHERE tenant_id = $1 AND is_primary', [tenantId])).rowCount > 0;
}

/**
 * Adds a domain. Undefined when the name is taken (by any tenant: the unique index sees every row
 * even where row-level security hides them); the statement's savepoint keeps the transaction usable.
 */
export async function insertDomain(
  tx: Queryable,
  d: { tenantId: string; domain: string; type: DomainType; isPrimary: boolean; sslStatus: SslStatus },
): Promise<TenantDomainRow | undefined> {
  await tx.query('SAVEPOINT tenant_domain_insert');
  try {
    const r = await tx.query<TenantDomainRow>(
      `INSERT INTO tenant_domains (tenant_id, domain, domain_type, is_primary, ssl_status) VALUES ($1, $2, $3, $4, $5)
       RETURNING ${COLUMNS}`,
      [d.tenantId, d.domain, d.type, d.isPrimary, d.sslStatus],
    );
    await tx.query('RELEASE SAVEPOINT tenant_domain_insert');
    return r.rows[0];
  } catch (e) {
    if ((e as { code?: string }).code !== '23505') throw e;
    await tx.query('ROLLBACK TO SAVEPOINT tenant_domain_insert');
    return undefined;
  }
}

export async function setPrimary(tx: Queryable, tenantId: string, id: string): Promise<void> {
  await tx.query('UPDATE tenant_domains SET is_primary = true, updated_at = now() WHERE tenant_id = $1 AND id = $2', [
    tenantId,
    id,
  ]);
}

export async function deleteDomain(tx: Queryable, tenantId: string, id: string): Promise<boolean> {
  return (await tx.query('DELETE FROM tenant_domains WHERE tenant_id = $1 AND id = $2', [tenantId, id])).rowCount > 0;
}

/**
 * A tenant's retry: a custom domain not yet active goes back to `pending`, its deadline restarts at
 * `now` and the DNS check looks at it at once. The CNAME is looked for again from scratch.
 */
export async function restartVerification(
  tx: Queryable,
  tenantId: string,
  id: string,
  now: Date,
): Promise<TenantDomainRow | undefined> {
  return (
    await tx.query<TenantDomainRow>(
      `UPDATE tenant_domains SET ssl_status = 'pending', cname_seen_at = NULL, failure_reason = NULL, check_error = NULL,
              verify_started_at = $3, next_check_at = $3, updated_at = $3
        WHERE tenant_id = $1 AND id = $2 AND domain_type = 'custom' AND ssl_status <> 'active'
        RETURNING ${COLUMNS}`,
      [tenantId, id, now],
    )
  ).rows[0];
}

/**
 * The tenant's platform subdomain `<slug>.<tenantsHost>`: active at once (the platform's wildcard
 * certificate covers it) and primary when the tenant has no primary yet. Idempotent, for
 * provisioning that may run twice.
 */
export async function ensureSubdomain(
  tx: Queryable,
  tenantId: string,
  slug: string,
  tenantsHost: string,
): Promise<void> {
  const domain = `${slug}.${tenantsHost}`.toLowerCase();
  await tx.query(
    `INSERT INTO tenant_domains (tenant_id, domain, domain_type, is_primary, ssl_status, cname_seen_at)
     SELECT $1, $2, 'subdomain', NOT EXISTS (SELECT 1 FROM tenant_domains WHERE tenant_id = $1 AND is_primary), 'active', now()
     ON CONFLICT (domain) DO NOTHING`,
    [tenantId, domain],
  );
}

/** The host customers reach the tenant on: its primary domain, else its platform subdomain (and its slug). */
export async function primaryHost(tx: Queryable, tenantId: string): Promise<{ domain: string | null; slug: string }> {
  const d = await tx.query<{ domain: string }>(
    `SELECT domain FROM tenant_domains WHERE tenant_id = $1
      ORDER BY is_primary DESC, (domain_type = 'subdomain') DESC, created_at LIMIT 1`,
    [tenantId],
  );
  const t = await tx.query<{ slug: string }>('SELECT slug FROM tenants WHERE id = $1', [tenantId]);
  return { domain: d.rows[0]?.domain ?? null, slug: t.rows[0]?.slug ?? '' };
}
