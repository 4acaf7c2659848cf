/** SQL of email verification: the account's `email_verified_at` and the emailed links. */
import type { Queryable } from '@platform/db';

export interface VerificationRow {
  id: string;
  tenant_id: string;
  user_id: string;
}

/** A sign-up's owner starts unverified (every other account is verified by the column's default). */
export async function markUnverified(q: Queryable, userId: string): Promise<void> {
  await q.query('UPDATE users SET email_verified_at = NULL, updated_at = now() WHERE id = $1::uuid', [userId]);
}

export async function markVerified(q: Queryable, userId: string, at: Date): Promise<void> {
  await q.query(
    'UPDATE users SET email_verified_at = coalesce(email_verified_at, $2), updated_at = now() WHERE id = $1::uuid',
    [userId, at],
  );
}

/** True when the account's address is verified (false for an unknown id). */
export async function emailVerified(q: Queryable, userId: string): Promise<boolean> {
  const r = await q.query<{ verified: boolean }>(
    'SELECT email_verified_at IS NOT NULL AS verified FROM users WHERE id = $1::uuid',
    [userId],
  );
  return r.rows[0]?.verified ?? false;
}

export async function insertVerification(
  q: Queryable,
  v: { tenantId: string; userId: string; hash: Buffer; expiresAt: Date },
): Promise<string> {
  const r = await q.query<{ id: string }>(
    `INSERT INTO email_verifications (tenant_id, user_id, token_hash, expires_at)
     VALUES ($1::uuid, $2::uuid, $3, $4) RETURNING id`,
    [v.tenantId, v.userId, v.hash, v.expiresAt],
  );
  return r.rows[0]!.id;
}

/** A new link (a resend) replaces the older ones. */
export async function retireVerifications(q: Queryable, userId: string, at: Date): Promise<void> {
  await q.query('UPDATE email_verifications SET used_at = $2 WHERE user_id = $1::uuid AND used_at IS NULL', [
    userId,
    at,
  ]);
}

/** By hash, before the tenant is known: the owning role (the hash is the capability). */
export async function findVerificationByHash(q: Queryable, hash: Buffer): Promise<VerificationRow | undefined> {
  return (
    await q.query<VerificationRow>('SELECT id, tenant_id, user_id FROM email_verifications WHERE token_hash = $1', [
      hash,
    ])
  ).rows[0];
}

/** Uses the link once: true only for the one caller that finds it unused and unexpired. */
export async function claimVerification(q: Queryable, id: string, now: Date): Promise<boolean> {
  const r = await q.query(
    `UPDATE email_verifications SET used_at = $2 WHERE id = $1::uuid AND used_at IS NULL AND expires_at > $2
     RETURNING 1`,
    [id, now],
  );
  return r.rowCount > 0;
}
