/** SQL of the tenant's price grids (tables price_grids and price_grid_seeds, migration 0125). */
import type { Queryable } from '@platform/db';

import type { PriceGrid } from './pricing.js';

interface GridRow extends PriceGrid {
  updated_at: Date;
}

const COLUMNS = 'product_code, name, bands, options, mount_allowance_in, updated_at';

export async function listGrids(q: Queryable, tenantId: string): Promise<GridRow[]> {
  const r = await q.query<GridRow>(`SELECT ${COLUMNS} FROM price_grids WHERE tenant_id = $1 ORDER BY product_code`, [
    tenantId,
  ]);
  return r.rows;
}

export async function findGrids(q: Queryable, tenantId: string, codes: string[]): Promise<GridRow[]> {
  const r = await q.query<GridRow>(
    `SELECT ${COLUMNS} FROM price_grids WHERE tenant_id = $1 AND product_code = ANY($2::text[])`,
    [tenantId, codes],
  );
  return r.rows;
}

export async function upsertGrid(q: Queryable, tenantId: string, g: PriceGrid): Promise<GridRow> {
  const r = await q.query<GridRow>(
    `INSERT INTO price_grids (tenant_id, product_code, name, bands, options, mount_allowance_in)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (tenant_id, product_code) DO UPDATE SET name = EXCLUDED.name, bands = EXCLUDED.bands,
       options = EXCLUDED.options, mount_allowance_in = EXCLUDED.mount_allowance_in, updated_at = now()
     RETURNING ${COLUMNS}`,
    [
      tenantId,
      g.product_code,
      g.name,
      JSON.stringify(g.bands),
      JSON.stringify(g.options),
      JSON.stringify(g.mount_allowance_in),
    ],
  );
  return r.rows[0]!;
}

/** True the first time for a tenant (the caller then seeds), false ever after. */
export async function claimSeed(q: Queryable, tenantId: string): Promise<boolean> {
  const r = await q.query(
    'INSERT INTO price_grid_seeds (tenant_id) VALUES ($1) ON CONFLICT (tenant_id) DO NOTHING RETURNING tenant_id',
    [tenantId],
  );
  return r.rows.length === 1;
}

export async function insertGridIfMissing(q: Queryable, tenantId: string, g: PriceGrid): Promise<void> {
  await q.query(
    `INSERT INTO price_grids (tenant_id, product_code, name, bands, options, mount_allowance_in)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (tenant_id, product_code) DO NOTHING`,
    [
      tenantId,
      g.product_code,
      g.name,
      JSON.stringify(g.bands),
      JSON.stringify(g.options),
      JSON.stringify(g.mount_allowance_in),
    ],
  );
}
