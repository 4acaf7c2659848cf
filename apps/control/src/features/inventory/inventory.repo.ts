/** SQL of the parts products need per window (migration 0410). Inside withTenant. */
import type { ProductPart } from '@platform/contracts/inventory.js';
import type { Queryable } from '@platform/db';

export async function partsOfProduct(tx: Queryable, tenantId: string, code: string): Promise<ProductPart[]> {
  const r = await tx.query<{ part_id: number; qty: string }>(
    `SELECT part_id, qty_per_window AS qty FROM inventory_product_parts
      WHERE tenant_id = $1 AND product_code = $2 ORDER BY part_id`,
    [tenantId, code],
  );
  return r.rows.map((x) => ({ part_id: x.part_id, qty_per_window: Number(x.qty) }));
}

/** Each product code's parts, for the codes given. */
export async function partsOfProducts(
  tx: Queryable,
  tenantId: string,
  codes: string[],
): Promise<Map<string, ProductPart[]>> {
  const r = await tx.query<{ product_code: string; part_id: number; qty: string }>(
    `SELECT product_code, part_id, qty_per_window AS qty FROM inventory_product_parts
      WHERE tenant_id = $1 AND product_code = ANY($2::text[]) ORDER BY product_code, part_id`,
    [tenantId, codes],
  );
  const out = new Map<string, ProductPart[]>();
  for (const x of r.rows)
    out.set(x.product_code, [
      ...(out.get(x.product_code) ?? []),
      { part_id: x.part_id, qty_per_window: Number(x.qty) },
    ]);
  return out;
}

/** Replaces the product's parts with `parts`. */
export async function setPartsOfProduct(tx: Queryable, tenantId: string, code: string, parts: ProductPart[]) {
  await tx.query(`DELETE FROM inventory_product_parts WHERE tenant_id = $1 AND product_code = $2`, [tenantId, code]);
  for (const p of parts) {
    await tx.query(
      `INSERT INTO inventory_product_parts (tenant_id, product_code, part_id, qty_per_window) VALUES ($1, $2, $3, $4)`,
      [tenantId, code, p.part_id, p.qty_per_window],
    );
  }
}
