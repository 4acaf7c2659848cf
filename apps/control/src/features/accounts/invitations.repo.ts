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

export interface PendingInvitationRow {
  id: string;
  email: string;
  role: Role;
  invited_by: string | null;
  created_at: Date;
  expires_at: Date;
}

const PENDING = 'accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $2';

/** The tenant's invitations still open (not accepted, revoked, replaced or expired), newest first. */
export async function listPending(q: Queryable, tenantId: string, now: Date): Promise<PendingInvitationRow[]> {
  const r = await q.query<PendingInvitationRow>(
    `SELECT id, email, role, invited_by, created_at, expires_at FROM invitations
      WHERE tenant_id = $1::uuid AND ${PENDING} ORDER BY created_at DESC, id`,
    [tenantId, now],
  );
  return r.rows;
}

/** A new link for an open invitation: the old link stops working. Undefined when it is not open. */
export async function renewPending(
  q: Queryable,
  tenantId: string,
  id: string,
  now: Date,
  next: { hash: Buffer; expiresAt: Date },
): Promise<PendingInvitationRow | undefined> {
  const r = await q.query<PendingInvitationRow>(
    `UPDATE invitations SET token_hash = $4, expires_at = $5
      WHERE tenant_id = $1::uuid AND ${PENDING} AND id = $3::uuid
      RETURNING id, email, role, invited_by, created_at, expires_at`,
    [tenantId, now, id, next.hash, next.expiresAt],
  );
  return r.rows[0];
}

/** Revokes an open invitation; false when there is none of that id open in the tenant. */
export async function revokeOne(q: Queryable, tenantId: string, id: string, now: Date): Promise<boolean> {
  const r = await q.query(
    `UPDATE invitations SET revoked_at = $2 WHERE tenant_id = $1::uuid AND ${PENDING} AND id = $3::uuid RETURNING 1`,
    [tenantId, now, id],
  );
  return r.rowCount > 0;
}
