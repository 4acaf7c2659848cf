/** SQL of branches and their members (migration 0320). */
import type { BranchView } from '@platform/contracts/branch.js';
import type { Queryable } from '@platform/db';

/** A branch row is the wire shape itself. */
export type BranchRow = BranchView;

export type BranchFields = Pick<BranchRow, 'name' | 'address' | 'phone' | 'time_zone' | 'zip_codes'>;

const SELECT = `SELECT b.id, b.name, b.address, b.phone, b.time_zone, b.zip_codes, b.is_default,
  coalesce(array_agg(m.user_id::text ORDER BY m.user_id) FILTER (WHERE m.user_id IS NOT NULL), '{}') AS member_ids
  FROM branches b LEFT JOIN branch_members m ON m.branch_id = b.id`;

/** The tenant's branches, default first; `lock` holds them for a change of service areas. */
export async function listBranches(q: Queryable, tenantId: string, lock = false): Promise<BranchRow[]> {
  if (lock) await q.query('SELECT id FROM branches WHERE tenant_id = $1::uuid FOR UPDATE', [tenantId]);
  const r = await q.query<BranchRow>(
    `${SELECT} WHERE b.tenant_id = $1::uuid GROUP BY b.id ORDER BY b.is_default DESC, b.name`,
    [tenantId],
  );
  return r.rows;
}

export async function insertBranch(
  q: Queryable,
  tenantId: string,
  id: string,
  f: BranchFields & { is_default: boolean },
): Promise<void> {
  await q.query(
    `INSERT INTO branches (id, tenant_id, name, address, phone, time_zone, zip_codes, is_default)
     VALUES ($1::uuid, $2::uuid, $3, $4, $5, $6, $7::text[], $8)`,
    [id, tenantId, f.name, f.address, f.phone, f.time_zone, f.zip_codes, f.is_default],
  );
}

export async function updateBranch(q: Queryable, tenantId: string, id: string, f: BranchFields): Promise<boolean> {
  const r = await q.query(
    `UPDATE branches SET name = $3, address = $4, phone = $5, time_zone = $6, zip_codes = $7::text[], updated_at = now()
      WHERE tenant_id = $1::uuid AND id = $2::uuid`,
    [tenantId, id, f.name, f.address, f.phone, f.time_zone, f.zip_codes],
  );
  return (r.rowCount ?? 0) > 0;
}

/** Makes `id` the tenant's only default branch. */
export async function makeDefault(q: Queryable, tenantId: string, id: string): Promise<void> {
  await q.query('UPDATE branches SET is_default = false WHERE tenant_id = $1::uuid AND is_default AND id <> $2::uuid', [
    tenantId,
    id,
  ]);
  await q.query('UPDATE branches SET is_default = true WHERE tenant_id = $1::uuid AND id = $2::uuid', [tenantId, id]);
}

export async function deleteBranch(q: Queryable, tenantId: string, id: string): Promise<void> {
  await q.query('DELETE FROM branches WHERE tenant_id = $1::uuid AND id = $2::uuid', [tenantId, id]);
}

export async function setMembers(q: Queryable, tenantId: string, branchId: string, userIds: string[]): Promise<void> {
  await q.query('DELETE FROM branch_members WHERE tenant_id = $1::uuid AND branch_id = $2::uuid', [tenantId, branchId]);
  if (userIds.length)
    await q.query(
      `INSERT INTO branch_members (tenant_id, branch_id, user_id)
       SELECT $1::uuid, $2::uuid, u FROM unnest($3::uuid[]) AS u`,
      [tenantId, branchId, userIds],
    );
}
