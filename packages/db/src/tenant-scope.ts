/**
 * Tenant-scoped transactions: the only way request code touches tenant-owned rows. The transaction
 * runs as the `platform_app` role (no BYPASSRLS) with `app.tenant_id` set for this transaction only,
 * so PostgreSQL's row-level security (migration 0100) hides and refuses every other tenant's rows,
 * whatever the SQL says. Both settings end with the transaction, so a pooled connection never leaks
 * one tenant's scope into the next request.
 */
import type { Db, Queryable } from './db.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `opts.readOnly`: reads only (Db.transaction's `readOnly`: a write fails; no wait for COMMIT on PostgreSQL). */
export async function withTenant<T>(
  db: Db,
  tenantId: string,
  fn: (tx: Queryable) => Promise<T>,
  opts: { readOnly?: boolean } = {},
): Promise<T> {
  // A malformed id would make the policy's cast fail inside the caller's statement; refuse it here.
  if (!UUID.test(tenantId)) throw new Error('withTenant: tenant id must be a UUID');
  const begin = scope(tenantId);
  return db.transaction(
    (tx) => {
      // A Db wrapper that dropped `begin` would run fn unscoped (as the owner, past row-level security).
      if (tx.begun !== begin) throw new Error('withTenant: the transaction was opened without the tenant scope');
      return fn(tx);
    },
    { begin, readOnly: opts.readOnly === true },
  );
}

/**
 * Narrows an open transaction (running as the owning role) to one tenant from here on, as
 * withTenant does from its start: for work that must first touch global rows (the accounts of
 * people, which span tenants) and then one tenant's rows, all committed together.
 */
export async function enterTenant(tx: Queryable, tenantId: string): Promise<void> {
  if (!UUID.test(tenantId)) throw new Error('enterTenant: tenant id must be a UUID');
  await tx.exec(scope(tenantId));
}

/**
 * `SET LOCAL ROLE platform_app` and the tenant in ONE statement: `role` is the setting SET ROLE sets,
 * so `set_config('role', …, true)` is SET LOCAL ROLE (same membership check, same end with the
 * transaction). withTenant sends it with BEGIN in one round trip, so it takes no parameter: the id
 * is inlined, which is safe only because it was checked to be a UUID (hex digits and dashes) first.
 */
function scope(tenantId: string): string {
  if (!UUID.test(tenantId)) throw new Error('tenant scope: tenant id must be a UUID');
  return `SELECT set_config('role', 'platform_app', true), set_config('app.tenant_id', '${tenantId}', true)`;
}
