/** SQL of sign-in sessions (refresh-token families) and their refresh tokens. */
import type { Queryable } from '@platform/db';

import type { Role } from '../auth/principal.js';

export interface TokenRow {
  id: string;
  tenant_id: string;
  session_id: string;
  expires_at: Date;
  rotated_at: Date | null;
}

export interface SessionRow {
  id: string;
  tenant_id: string;
  user_id: string;
  absolute_expires_at: Date;
  revoked_at: Date | null;
}

export type RevokeReason = 'logout' | 'logout_all' | 'reuse' | 'password_reset' | 'removed';

export async function insertSession(
  q: Queryable,
  s: { tenantId: string; userId: string; absoluteExpiresAt: Date; ip: string | null; userAgent: string | null },
): Promise<string> {
  const r = await q.query<{ id: string }>(
    `INSERT INTO auth_sessions (tenant_id, user_id, absolute_expires_at, ip, user_agent)
     VALUES ($1::uuid, $2::uuid, $3, $4::inet, $5) RETURNING id`,
    [s.tenantId, s.userId, s.absoluteExpiresAt, s.ip, s.userAgent?.slice(0, 300) ?? null],
  );
  return r.rows[0]!.id;
}

export async function insertRefreshToken(
  q: Queryable,
  t: { tenantId: string; sessionId: string; hash: Buffer; expiresAt: Date },
): Promise<void> {
  await q.query(
    'INSERT INTO refresh_tokens (tenant_id, session_id, token_hash, expires_at) VALUES ($1::uuid, $2::uuid, $3, $4)',
    [t.tenantId, t.sessionId, t.hash, t.expiresAt],
  );
}

/** By hash, before the tenant is known: run by the owning role (the hash is the capability). */
export async function findTokenByHash(q: Queryable, hash: Buffer): Promise<TokenRow | undefined> {
  return (
    await q.query<TokenRow>(
      'SELECT id, tenant_id, session_id, expires_at, rotated_at FROM refresh_tokens WHERE token_hash = $1',
      [hash],
    )
  ).rows[0];
}

/** Locks the session row: concurrent refreshes of one session run one after the other. */
export async function lockSession(q: Queryable, id: string): Promise<SessionRow | undefined> {
  return (
    await q.query<SessionRow>(
      'SELECT id, tenant_id, user_id, absolute_expires_at, revoked_at FROM auth_sessions WHERE id = $1::uuid FOR UPDATE',
      [id],
    )
  ).rows[0];
}

export async function tokenById(q: Queryable, id: string): Promise<TokenRow | undefined> {
  return (
    await q.query<TokenRow>(
      'SELECT id, tenant_id, session_id, expires_at, rotated_at FROM refresh_tokens WHERE id = $1::uuid',
      [id],
    )
  ).rows[0];
}

export async function markRotated(q: Queryable, id: string, at: Date): Promise<void> {
  await q.query('UPDATE refresh_tokens SET rotated_at = $2 WHERE id = $1::uuid', [id, at]);
}

export async function revokeSession(q: Queryable, id: string, reason: RevokeReason, at: Date): Promise<void> {
  await q.query(
    'UPDATE auth_sessions SET revoked_at = $3, revoked_reason = $2 WHERE id = $1::uuid AND revoked_at IS NULL',
    [id, reason, at],
  );
}

/** Every live session of the user in the tenant (the transaction's tenant scope). */
export async function revokeUserSessions(
  q: Queryable,
  tenantId: string,
  userId: string,
  reason: RevokeReason,
  at: Date,
): Promise<number> {
  const r = await q.query(
    `UPDATE auth_sessions SET revoked_at = $4, revoked_reason = $3
      WHERE tenant_id = $1::uuid AND user_id = $2::uuid AND revoked_at IS NULL`,
    [tenantId, userId, reason, at],
  );
  return r.rowCount;
}

/** Every live session of the user in every tenant: the owning role only (a password is global). */
export async function revokeUserSessionsEverywhere(
  q: Queryable,
  userId: string,
  reason: RevokeReason,
  at: Date,
): Promise<number> {
  const r = await q.query(
    `UPDATE auth_sessions SET revoked_at = $3, revoked_reason = $2 WHERE user_id = $1::uuid AND revoked_at IS NULL`,
    [userId, reason, at],
  );
  return r.rowCount;
}

/**
 * What the auth guard checks on every signed-in request, in one round trip: the tenant's status (a
 * read-only join of tenancy's `tenants`), whether the session is live, and the member's current role.
 */
export async function sessionStanding(
  q: Queryable,
  k: { tenantId: string; sessionId: string | null; userId: string | null },
): Promise<{ status: string; live: boolean; role: Role | null } | undefined> {
  const r = await q.query<{ status: string; live: boolean; role: Role | null }>(
    `SELECT t.status, s.id IS NOT NULL AND s.revoked_at IS NULL AS live, m.role
       FROM tenants t
       LEFT JOIN auth_sessions s ON s.id = $2::uuid AND s.tenant_id = t.id AND s.user_id = $3::uuid
       LEFT JOIN tenant_memberships m ON m.tenant_id = t.id AND m.user_id = $3::uuid
      WHERE t.id = $1::uuid`,
    [k.tenantId, k.sessionId, k.userId],
    // Every signed-in request runs it: prepared on PostgreSQL, planning was half its time.
    { name: 'session_standing' },
  );
  return r.rows[0];
}
