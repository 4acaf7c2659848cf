/**
 * SQL of tenant_domains for the platform's own background work across tenants (the DNS check, the
 * certificate hookup). Runs as the owning role: it serves no tenant's request.
 */
import type { Queryable } from '@platform/db';

export interface DueCheck {
  id: string;
  tenant_id: string;
  domain: string;
  verify_started_at: Date;
  /** The claim's lease (next_check_at as claimed): recording is guarded by it. */
  next_check_at: Date;
}

/**
 * Claims pending custom domains whose CNAME has not been seen and whose look is due: next_check_at
 * moves to `leaseUntil`, so another worker skips them (SKIP LOCKED) and a worker that dies
 * mid-check leaves them due again when the lease ends.
 */
export async function claimDueChecks(db: Queryable, now: Date, leaseUntil: Date, limit: number): Promise<DueCheck[]> {
  return (
    await db.query<DueCheck>(
      `UPDATE tenant_domains SET next_check_at = $2
        WHERE id IN (
          SELECT id FROM tenant_domains
           WHERE domain_type = 'custom' AND ssl_status = 'pending' AND cname_seen_at IS NULL AND next_check_at <= $1
           ORDER BY next_check_at LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING id, tenant_id, domain, verify_started_at, next_check_at`,
      [now, leaseUntil, limit],
    )
  ).rows;
}

export type CheckRecord =
  | { outcome: 'seen'; now: Date }
  | { outcome: 'not_yet'; error: string; now: Date; nextCheckAt: Date }
  | { outcome: 'failed'; error: string; reason: string; now: Date };

/**
 * What one look found. Guarded by the claim's lease: a tenant's retry during the look moved
 * next_check_at, so the stale result of the older look is dropped instead of overwriting it.
 */
export async function recordCheck(db: Queryable, c: DueCheck, r: CheckRecord): Promise<boolean> {
  const guard = `WHERE id = $1 AND next_check_at = $2 AND ssl_status = 'pending' AND cname_seen_at IS NULL`;
  const base = [c.id, c.next_check_at, r.now];
  const q =
    r.outcome === 'seen'
      ? db.query(
          `UPDATE tenant_domains SET cname_seen_at = $3, last_checked_at = $3, check_error = NULL, updated_at = $3 ${guard}`,
          base,
        )
      : r.outcome === 'not_yet'
        ? db.query(
            `UPDATE tenant_domains SET last_checked_at = $3, check_error = $4, next_check_at = $5, updated_at = $3 ${guard}`,
            [...base, r.error, r.nextCheckAt],
          )
        : db.query(
            `UPDATE tenant_domains SET ssl_status = 'failed', last_checked_at = $3, check_error = $4, failure_reason = $5,
                    updated_at = $3 ${guard}`,
            [...base, r.error, r.reason],
          );
  return (await q).rowCount > 0;
}

/** Custom domains proved by their CNAME and not failed: the only names ever sent to the CA. */
export async function listProvedCustomDomains(db: Queryable): Promise<{ domain: string; tenantId: string }[]> {
  const r = await db.query<{ domain: string; tenant_id: string }>(
    `SELECT d.domain, d.tenant_id FROM tenant_domains d JOIN tenants t ON t.id = d.tenant_id
      WHERE d.domain_type = 'custom' AND d.cname_seen_at IS NOT NULL AND d.ssl_status IN ('pending', 'active')
        AND t.status IN ('active', 'suspended')
      ORDER BY d.cname_seen_at`,
  );
  return r.rows.map((x) => ({ domain: x.domain, tenantId: x.tenant_id }));
}

export async function markSslActive(db: Queryable, domain: string, tenantId: string): Promise<void> {
  await db.query(
    `UPDATE tenant_domains SET ssl_status = 'active', failure_reason = NULL, updated_at = now()
      WHERE domain = $1 AND tenant_id = $2 AND domain_type = 'custom' AND cname_seen_at IS NOT NULL`,
    [domain, tenantId],
  );
}

export async function markSslFailed(db: Queryable, domain: string, tenantId: string, reason: string): Promise<void> {
  await db.query(
    `UPDATE tenant_domains SET ssl_status = 'failed', failure_reason = $3, updated_at = now()
      WHERE domain = $1 AND tenant_id = $2 AND domain_type = 'custom'`,
    [domain, tenantId, reason.slice(0, 1000)],
  );
}
