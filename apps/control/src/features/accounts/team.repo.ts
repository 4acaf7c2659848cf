/** SQL of a tenant's members (inside the tenant's scope). */
import type { Queryable } from '@platform/db';

import type { Role } from '../auth/principal.js';

export interface MemberRow {
  id: string;
  email: string;
  name: string;
  role: Role;
  joined_at: Date;
}

export async function listMembers(
  q: Queryable,
  tenantId: string,
  limit: number,
  offset: number,
): Promise<{ rows: MemberRow[]; total: number }> {
  const rows = await q.query<MemberRow>(
    `SELECT u.id, u.email, u.name, m.role, m.created_at AS joined_at
       FROM tenant_memberships m JOIN users u ON u.id = m.user_id
      WHERE m.tenant_id = $1::uuid ORDER BY m.created_at, u.email LIMIT $2 OFFSET $3`,
    [tenantId, limit, offset],
  );
  const n = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM tenant_memberships WHERE tenant_id = $1::uuid',
    [tenantId],
  );
  return { rows: rows.rows, total: n.rows[0]?.n ?? 0 };
}

/** The tenant's technicians by name: whom the office can dispatch a job to. */
export async function listTechnicians(q: Queryable, tenantId: string): Promise<{ id: string; name: string }[]> {
  const r = await q.query<{ id: string; name: string }>(
    `SELECT u.id, COALESCE(NULLIF(u.name, ''), u.email) AS name
       FROM tenant_memberships m JOIN users u ON u.id = m.user_id
      WHERE m.tenant_id = $1::uuid AND m.role = 'technician' ORDER BY 2, u.id`,
    [tenantId],
  );
  return r.rows;
}

export async function memberById(q: Queryable, tenantId: string, userId: string): Promise<MemberRow | undefined> {
  const r = await q.query<MemberRow>(
    `SELECT u.id, u.email, u.name, m.role, m.created_at AS joined_at
       FROM tenant_memberships m JOIN users u ON u.id = m.user_id
      WHERE m.tenant_id = $1::uuid AND m.user_id = $2::uuid`,
    [tenantId, userId],
  );
  return r.rows[0];
}

/** The member's row, locked with every owner's row (so "the last owner" is decided one at a time). */
export async function lockMember(
  q: Queryable,
  tenantId: string,
  userId: string,
): Promise<{ role: Role; owners: number } | undefined> {
  const owners = await q.query<{ user_id: string }>(
    `SELECT user_id FROM tenant_memberships WHERE tenant_id = $1::uuid AND role = 'owner' FOR UPDATE`,
    [tenantId],
  );
  const r = await q.query<{ role: Role }>(
    'SELECT role FROM tenant_memberships WHERE tenant_id = $1::uuid AND user_id = $2::uuid FOR UPDATE',
    [tenantId, userId],
  );
  const role = r.rows[0]?.role;
  return role ? { role, owners: owners.rowCount } : undefined;
}

export async function setRole(q: Queryable, tenantId: string, userId: string, role: Role): Promise<void> {
  await q.query('UPDATE tenant_memberships SET role = $3 WHERE tenant_id = $1::uuid AND user_id = $2::uuid', [
    tenantId,
    userId,
    role,
  ]);
}

export async function deleteMembership(q: Queryable, tenantId: string, userId: string): Promise<void> {
  await q.query('DELETE FROM tenant_memberships WHERE tenant_id = $1::uuid AND user_id = $2::uuid', [tenantId, userId]);
}

/** How many members the tenant has, and how many of them are technicians (the plan's limits). */
export async function memberCounts(q: Queryable, tenantId: string): Promise<{ users: number; technicians: number }> {
  const r = await q.query<{ users: number; technicians: number }>(
    `SELECT count(*)::int AS users, count(*) FILTER (WHERE role = 'technician')::int AS technicians
       FROM tenant_memberships WHERE tenant_id = $1::uuid`,
    [tenantId],
  );
  return r.rows[0] ?? { users: 0, technicians: 0 };
}

/** A member of the tenant in scope (row-level security hides every other tenant's members). */
export async function memberInScope(
  q: Queryable,
  userId: string,
): Promise<{ role: string; name: string; email: string } | undefined> {
  const r = await q.query<{ role: string; name: string; email: string }>(
    `SELECT m.role, coalesce(nullif(u.name, ''), u.email) AS name, u.email
     FROM tenant_memberships m JOIN users u ON u.id = m.user_id WHERE m.user_id = $1::uuid`,
    [userId],
  );
  return r.rows[0];
}

/**
 * SQL of one user's display name (the name, else the email; null for no such user) for the user id
 * expression `userId`: the same read as displayNames, for a statement of another module that wants
 * the names in its own round trip (jobs' page statement). The module that embeds it reads `users`
 * through this module's SQL only.
 */
export function displayNameSql(userId: string): string {
  return `(SELECT coalesce(nullif(u.name, ''), u.email) FROM users u WHERE u.id = ${userId})`;
}

/** Display names (the name, else the email) of these users. */
export async function displayNames(q: Queryable, userIds: string[]): Promise<Map<string, string>> {
  if (!userIds.length) return new Map();
  const r = await q.query<{ id: string; name: string }>(
    `SELECT id, coalesce(nullif(name, ''), email) AS name FROM users WHERE id = ANY($1::uuid[])`,
    [userIds],
  );
  return new Map(r.rows.map((x) => [x.id, x.name]));
}
