/** Stored computes of the stock models (Odoo 15 computes them on read; the values read are the same). */
import { rows, tbl } from '../orm/lookup.js';
import type { ComputedRow, ComputeSpec } from '../registry.js';

/** Odoo 15 `_compute_complete_name`: "Parent/Name" below a non-view location, else the name alone. */
export const completeName: ComputeSpec = {
  fields: ['complete_name'],
  depends: ['name', 'usage', 'location_id', 'location_id.complete_name'],
  compute: (env, ids, m) =>
    rows<ComputedRow>(
      env,
      `SELECT c.id, CASE WHEN p.id IS NOT NULL AND c.usage <> 'view'
          THEN p.complete_name || '/' || c.name ELSE c.name END AS complete_name
         FROM ${tbl(env, m.name)} c LEFT JOIN ${tbl(env, m.name)} p ON p.id = c.location_id
        WHERE c.id = ANY($1::integer[])`,
      [ids],
    ),
};

/** available = on hand − reserved; the counted difference only once a count was entered (Odoo 15). */
export const quantDifferences: ComputeSpec = {
  fields: ['available_quantity', 'inventory_diff_quantity'],
  depends: ['quantity', 'reserved_quantity', 'inventory_quantity', 'inventory_quantity_set'],
  compute: (env, ids, m) =>
    rows<ComputedRow>(
      env,
      `SELECT id, quantity - reserved_quantity AS available_quantity,
          CASE WHEN inventory_quantity_set THEN inventory_quantity - quantity ELSE 0 END AS inventory_diff_quantity
         FROM ${tbl(env, m.name)} WHERE id = ANY($1::integer[])`,
      [ids],
    ),
};

/** Internal-location sums of a product (Odoo's `_compute_quantities` without a location in the context). */
export const productQuantities: ComputeSpec = {
  fields: ['qty_available', 'free_qty', 'incoming_qty', 'outgoing_qty', 'virtual_available'],
  depends: [
    'stock_quant_ids.quantity',
    'stock_quant_ids.reserved_quantity',
    'stock_move_ids.state',
    'stock_move_ids.product_uom_qty',
  ],
  async compute(env, ids, m) {
    const loc = tbl(env, 'stock.location');
    const open = `mv.state NOT IN ('draft', 'done', 'cancel')`;
    const inside = (col: string) => `(SELECT usage = 'internal' FROM ${loc} WHERE id = mv.${col})`;
    const list = await rows<Record<string, string | number>>(
      env,
      `SELECT p.id,
          COALESCE((SELECT sum(q.quantity) FROM ${tbl(env, 'stock.quant')} q JOIN ${loc} l ON l.id = q.location_id
                     WHERE q.product_id = p.id AND l.usage = 'internal'), 0) AS on_hand,
          COALESCE((SELECT sum(q.reserved_quantity) FROM ${tbl(env, 'stock.quant')} q JOIN ${loc} l ON l.id = q.location_id
                     WHERE q.product_id = p.id AND l.usage = 'internal'), 0) AS reserved,
          COALESCE((SELECT sum(mv.product_uom_qty) FROM ${tbl(env, 'stock.move')} mv WHERE mv.product_id = p.id AND ${open}
                     AND ${inside('location_dest_id')} AND NOT ${inside('location_id')}), 0) AS incoming,
          COALESCE((SELECT sum(mv.product_uom_qty) FROM ${tbl(env, 'stock.move')} mv WHERE mv.product_id = p.id AND ${open}
                     AND ${inside('location_id')} AND NOT ${inside('location_dest_id')}), 0) AS outgoing
         FROM ${tbl(env, m.name)} p WHERE p.id = ANY($1::integer[])`,
      [ids],
    );
    return list.map((r) => {
      const [onHand, reserved, incoming, outgoing] = [r.on_hand, r.reserved, r.incoming, r.outgoing].map(Number);
      return {
        id: Number(r.id),
        qty_available: onHand!,
        free_qty: onHand! - reserved!,
        incoming_qty: incoming!,
        outgoing_qty: outgoing!,
        virtual_available: onHand! + incoming! - outgoing!,
      };
    });
  },
};
