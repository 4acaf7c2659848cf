/** SQL of password resets. */
import type { Queryable } from '@platform/db';

export interface ResetRow {
  id: string;
  tenant_id: string;
  user_id: string;
}

export async function insertReset(
  q: Queryable,
  r: { tenantId: string; userId: string; hash: Buffer; expiresAt: Date; ip: string | null },
): Promise<string> {
  const res = await q.query<{ id: string }>(
    `INSERT INTO password_resets (tenant_id, user_id, token_hash, expires_at, ip)
     VALUES ($1::uuid, $2::uuid, $3, $4, $5::inet) RETURNING id`,
    [r.tenantId, r.userId, r.hash, r.expiresAt, r.ip],
  );
  return res.rows[0]!.id;
}

/** A new link replaces the older ones of the user in this tenant. */
export async function retireResets(q: Queryable, userId: string, at: Date): Promise<void> {
  await q.query('UPDATE password_resets SET used_at = $2 WHERE user_id = $1::uuid AND used_at IS NULL', [userId, at]);
}

/** By hash, before the tenant is known: the owning role (the hash is the capability). */
export async function findResetByHash(q: Queryable, hash: Buffer): Promise<ResetRow | undefined> {
  return (await q.query<ResetRow>('SELECT id, tenant_id, user_id FROM password_resets WHERE token_hash = $1', [hash]))
    .rows[0];
}

/** Uses the link once: true only for the one caller that finds it unused and unexpired. */
export async function claimReset(q: Queryable, id: string, now: Date): Promise<boolean> {
  const r = await q.query(
    'UPDATE password_resets SET used_at = $2 WHERE id = $1::uuid AND used_at IS NULL AND expires_at > $2 RETURNING 1',
    [id, now],
  );
  return r.rowCount > 0;
}
