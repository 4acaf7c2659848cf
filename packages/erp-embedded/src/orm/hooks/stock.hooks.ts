/**
 * Hooks of the stock models: a transfer takes its locations and number from its operation type
 * (WH/IN/00001), a move its locations and type from its transfer; quantities on hand change only
 * through the stock actions (Odoo 15: "Quant's editing is restricted"), a count (inventory_quantity)
 * may be entered by anyone and is applied with action_apply_inventory; done moves stay as they are.
 */
import { userError } from '../../errors.js';
import type { Env } from '../env.js';
import { asId, one, tbl } from '../lookup.js';
import { nextByCode } from '../sequence.js';
import type { ModelHooks, Vals } from './hook-types.js';

const QUANT_COUNT_FIELDS = ['inventory_quantity', 'inventory_quantity_set', 'inventory_date', 'user_id'];
const QUANT_KEYS = ['product_id', 'location_id', 'company_id'];

interface TypeRow {
  code: string;
  src: number | null;
  dest: number | null;
  seq: string | null;
  company_id: number;
}

async function pickingDefaults(env: Env, vals: Vals): Promise<void> {
  const typeId = asId(vals.picking_type_id);
  if (!typeId) return;
  const t = await one<TypeRow>(
    env,
    `SELECT t.code, t.default_location_src_id AS src, t.default_location_dest_id AS dest, s.code AS seq, t.company_id
       FROM ${tbl(env, 'stock.picking.type')} t LEFT JOIN ${tbl(env, 'ir.sequence')} s ON s.id = t.sequence_id WHERE t.id = $1`,
    [typeId],
  );
  if (!t) return;
  if (!asId(vals.location_id) && t.src) vals.location_id = t.src;
  if (!asId(vals.location_dest_id) && t.dest) vals.location_dest_id = t.dest;
  if (!asId(vals.company_id)) vals.company_id = t.company_id;
  if ((!vals.name || vals.name === '/') && t.seq) vals.name = (await nextByCode(env, t.seq, t.company_id)) || '/';
}

async function moveDefaults(env: Env, vals: Vals): Promise<void> {
  const picking = asId(vals.picking_id);
  if (!picking) return;
  const p = await one<Record<string, number | string | null>>(
    env,
    `SELECT name, origin, location_id, location_dest_id, picking_type_id, partner_id, company_id
       FROM ${tbl(env, 'stock.picking')} WHERE id = $1`,
    [picking],
  );
  if (!p) return;
  for (const k of ['location_id', 'location_dest_id', 'picking_type_id', 'partner_id', 'company_id']) {
    if (!asId(vals[k]) && p[k]) vals[k] = p[k];
  }
  vals.reference = p.name;
  if (vals.origin === undefined && p.origin) vals.origin = p.origin;
  const product = await one<{ name: string; uom_id: number | null }>(
    env,
    `SELECT name, uom_id FROM ${tbl(env, 'product.product')} WHERE id = $1`,
    [asId(vals.product_id) ?? 0],
  );
  if (!vals.name && product) vals.name = product.name;
  if (!asId(vals.product_uom) && product?.uom_id) vals.product_uom = product.uom_id;
}

export const stockHooks: Record<string, ModelHooks> = {
  'stock.picking': {
    async prepare(env, _m, vals, ids) {
      if (!ids) await pickingDefaults(env, vals);
    },
  },
  'stock.move': {
    async prepare(env, m, vals, ids) {
      if (!ids) {
        if (!env.action && vals.state !== undefined && vals.state !== 'draft')
          throw userError('A move is created as draft; confirm its transfer (action_confirm).');
        return moveDefaults(env, vals);
      }
      if (env.action) return;
      const done = await one(
        env,
        `SELECT 1 FROM ${tbl(env, m.name)} WHERE id = ANY($1::integer[]) AND state IN ('done', 'cancel')`,
        [ids],
      );
      if (done && Object.keys(vals).some((k) => k !== 'name'))
        throw userError('You cannot change a stock move that has been set to done or cancelled.');
      if ('state' in vals || 'reserved_availability' in vals)
        throw userError('A move changes state through its transfer (action_confirm, action_assign, button_validate).');
    },
  },
  'stock.quant': {
    async prepare(env, _m, vals, ids) {
      if (env.action) return;
      const allowed = ids ? QUANT_COUNT_FIELDS : [...QUANT_COUNT_FIELDS, ...QUANT_KEYS];
      if (Object.keys(vals).some((k) => !allowed.includes(k)))
        throw userError("Quant's editing is restricted, you can't do this operation.");
      if ('inventory_quantity' in vals && vals.inventory_quantity_set === undefined) vals.inventory_quantity_set = true;
    },
  },
};
