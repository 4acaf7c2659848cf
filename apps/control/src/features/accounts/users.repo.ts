/** SQL of accounts: users and their tenant memberships. */
import type { Queryable } from '@platform/db';

import type { Role } from '../auth/principal.js';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
  disabled_at: Date | null;
}

export async function findUserByEmail(q: Queryable, email: string): Promise<UserRow | undefined> {
  return (
    await q.query<UserRow>('SELECT id, email, name, password_hash, disabled_at FROM users WHERE email = $1', [email])
  ).rows[0];
}

export async function insertUser(
  q: Queryable,
  u: { email: string; name: string; passwordHash: string | null },
): Promise<string> {
  const r = await q.query<{ id: string }>(
    `INSERT INTO users (email, name, password_hash) VALUES ($1, $2, $3)
     ON CONFLICT (email) DO NOTHING RETURNING id`,
    [u.email, u.name, u.passwordHash],
  );
  if (r.rows[0]) return r.rows[0].id;
  const again = await findUserByEmail(q, u.email);
  if (!again) throw new Error('user vanished after a conflicting insert');
  return again.id;
}

export async function membershipOf(q: Queryable, tenantId: string, userId: string): Promise<Role | undefined> {
  const r = await q.query<{ role: Role }>(
    'SELECT role FROM tenant_memberships WHERE tenant_id = $1::uuid AND user_id = $2::uuid',
    [tenantId, userId],
  );
  return r.rows[0]?.role;
}

export async function insertMembership(q: Queryable, tenantId: string, userId: string, role: Role): Promise<void> {
  await q.query(
    'INSERT INTO tenant_memberships (tenant_id, user_id, role) VALUES ($1::uuid, $2::uuid, $3) ON CONFLICT DO NOTHING',
    [tenantId, userId, role],
  );
}
