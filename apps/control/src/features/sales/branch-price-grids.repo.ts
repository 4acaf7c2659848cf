/** SQL of branch_price_grids (migration 0330): a branch's own grid for a product. */
import type { Queryable } from '@platform/db';

import type { PriceGrid } from './pricing.js';

interface GridRow extends PriceGrid {
  updated_at: Date;
}

const COLUMNS = 'product_code, name, bands, options, mount_allowance_in, updated_at';

export async function listBranchGrids(q: Queryable, tenantId: string, branchId: string): Promise<GridRow[]> {
  const r = await q.query<GridRow>(
    `SELECT ${COLUMNS} FROM branch_price_grids WHERE tenant_id = $1 AND branch_id = $2 ORDER BY product_code`,
    [tenantId, branchId],
  );
  return r.rows;
}

export async function findBranchGrids(
  q: Queryable,
  tenantId: string,
  branchId: string,
  codes: string[],
): Promise<GridRow[]> {
  const r = await q.query<GridRow>(
    `SELECT ${COLUMNS} FROM branch_price_grids WHERE tenant_id = $1 AND branch_id = $2 AND product_code = ANY($3::text[])`,
    [tenantId, branchId, codes],
  );
  return r.rows;
}

export async function upsertBranchGrid(q: Queryable, tenantId: string, branchId: string, g: PriceGrid) {
  const r = await q.query<GridRow>(
    `INSERT INTO branch_price_grids (tenant_id, branch_id, product_code, name, bands, options, mount_allowance_in)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (branch_id, product_code) DO UPDATE SET name = EXCLUDED.name, bands = EXCLUDED.bands,
       options = EXCLUDED.options, mount_allowance_in = EXCLUDED.mount_allowance_in, updated_at = now()
     RETURNING ${COLUMNS}`,
    [
      tenantId,
      branchId,
      g.product_code,
      g.name,
      JSON.stringify(g.bands),
      JSON.stringify(g.options),
      JSON.stringify(g.mount_allowance_in),
    ],
  );
  return r.rows[0]!;
}

export async function deleteBranchGrid(q: Queryable, tenantId: string, branchId: string, code: string) {
  const r = await q.query(
    'DELETE FROM branch_price_grids WHERE tenant_id = $1 AND branch_id = $2 AND product_code = $3',
    [tenantId, branchId, code],
  );
  return (r.rowCount ?? 0) > 0;
}
