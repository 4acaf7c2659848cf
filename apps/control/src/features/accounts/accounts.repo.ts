/** SQL of accounts seen across tenants (sign-in) and within one (profile, members). */
import type { Db, Queryable } from '@platform/db';

import type { Role } from '../auth/principal.js';

export interface MembershipView {
  tenant_id: string;
  slug: string;
  name: string;
  status: string;
  role: Role;
}

/** Every tenant the user belongs to, oldest membership first (the owning role: spans tenants). */
export async function membershipsOfUser(q: Queryable, userId: string): Promise<MembershipView[]> {
  const r = await q.query<MembershipView>(
    `SELECT m.tenant_id, t.slug, t.name, t.status, m.role
       FROM tenant_memberships m JOIN tenants t ON t.id = m.tenant_id
      WHERE m.user_id = $1::uuid ORDER BY m.created_at, t.slug`,
    [userId],
  );
  return r.rows;
}

export interface ProfileRow {
  user_id: string;
  email: string;
  user_name: string;
  tenant_id: string;
  slug: string;
  tenant_name: string;
  status: string;
  role: Role;
  disabled_at: Date | null;
}

/** The user's account and membership in the tenant, or nothing when not (or no longer) a member. */
export async function profileIn(q: Queryable, tenantId: string, userId: string): Promise<ProfileRow | undefined> {
  const r = await q.query<ProfileRow>(
    `SELECT u.id AS user_id, u.email, u.name AS user_name, t.id AS tenant_id, t.slug, t.name AS tenant_name,
            t.status, m.role, u.disabled_at
       FROM tenant_memberships m JOIN users u ON u.id = m.user_id JOIN tenants t ON t.id = m.tenant_id
      WHERE m.tenant_id = $1::uuid AND m.user_id = $2::uuid`,
    [tenantId, userId],
  );
  return r.rows[0];
}

export async function setPasswordHash(q: Queryable, userId: string, hash: string): Promise<void> {
  await q.query('UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1::uuid', [userId, hash]);
}

export async function emailOfUser(q: Queryable, userId: string): Promise<string | undefined> {
  return (await q.query<{ email: string }>('SELECT email FROM users WHERE id = $1::uuid', [userId])).rows[0]?.email;
}

export async function nameOfUser(q: Queryable, userId: string): Promise<{ name: string; email: string } | undefined> {
  return (await q.query<{ name: string; email: string }>('SELECT name, email FROM users WHERE id = $1::uuid', [userId]))
    .rows[0];
}

/** An account made without a name (an owner provisioned by email only) takes the one given when accepting. */
export async function setNameIfBlank(q: Queryable, userId: string, name: string): Promise<void> {
  await q.query(`UPDATE users SET name = $2, updated_at = now() WHERE id = $1::uuid AND name = ''`, [userId, name]);
}

/**
 * What a failed sign-in of a known account spends writing its audit entry (a transaction of a few
 * statements ending in a committed write), spent by an unknown address too: the write is a no-op
 * update of its own throttle row, so timing does not tell the two apart (bench:accounts measures it).
 */
export async function spendAuditCost(db: Db, throttleKey: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(`SELECT set_config('app.tenant_id', '', true)`);
    await tx.query(`SELECT set_config('app.audit_pad', '', true)`);
    await tx.query('UPDATE login_throttles SET last_failure_at = last_failure_at WHERE key = $1', [throttleKey]);
  });
}
