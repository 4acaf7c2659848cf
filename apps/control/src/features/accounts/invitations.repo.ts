/** SQL of invitations. */
import type { Queryable } from '@platform/db';

import type { Role } from '../auth/principal.js';

export interface InvitationRow {
  id: string;
  tenant_id: string;
  email: string;
  role: Role;
}

/** A new invitation of the address into the tenant replaces the pending one. */
export async function revokePending(q: Queryable, tenantId: string, email: string, at: Date): Promise<void> {
  await q.query(
    `UPDATE invitations SET revoked_at = $3
      WHERE tenant_id = $1::uuid AND email = $2 AND accepted_at IS NULL AND revoked_at IS NULL`,
    [tenantId, email, at],
  );
}

export async function insertInvitation(
  q: Queryable,
  i: { tenantId: string; email: string; role: Role; hash: Buffer; invitedBy: string; expiresAt: Date },
): Promise<string> {
  const r = await q.query<{ id: string }>(
    `INSERT INTO invitations (tenant_id, email, role, token_hash, invited_by, expires_at)
     VALUES ($1::uuid, $2, $3, $4, $5::uuid, $6) RETURNING id`,
    [i.tenantId, i.email, i.role, i.hash, i.invitedBy, i.expiresAt],
  );
  return r.rows[0]!.id;
}

/** By hash, before the tenant is known: the owning role (the hash is the capability). */
export async function findInvitationByHash(q: Queryable, hash: Buffer): Promise<InvitationRow | undefined> {
  return (
    await q.query<InvitationRow>('SELECT id, tenant_id, email, role FROM invitations WHERE token_hash = $1', [hash])
  ).rows[0];
}

/** Accepts once: true only for the one caller that finds it pending and unexpired. */
export async function claimInvitation(q: Queryable, id: string, userId: string, now: Date): Promise<boolean> {
  const r = await q.query(
    `UPDATE invitations SET accepted_at = $3, accepted_by = $2::uuid
      WHERE id = $1::uuid AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $3 RETURNING 1`,
    [id, userId, now],
  );
  return r.rowCount > 0;
}

/** Is the address already a member (the tenant scope sees only its own members)? */
export async function isMemberByEmail(q: Queryable, tenantId: string, email: string): Promise<boolean> {
  const r = await q.query(
    `SELECT 1 FROM tenant_memberships m JOIN users u ON u.id = m.user_id WHERE m.tenant_id = $1::uuid AND u.email = $2`,
    [tenantId, email],
  );
  return r.rowCount > 0;
}
