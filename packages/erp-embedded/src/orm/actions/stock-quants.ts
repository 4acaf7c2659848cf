/**
 * Quant arithmetic of the stock actions (Odoo 15 `stock.quant._update_available_quantity` and
 * `_update_reserved_quantity`): one quant per product and location (no lots or packages here),
 * changed through the ORM so the product's quantities recompute.
 */
import { userError } from '../../errors.js';
import type { Env } from '../env.js';
import { isZero, one, tbl } from '../lookup.js';
import { createRecord, write } from '../write.js';

export interface MoveRow {
  id: number;
  state: string;
  product_id: number;
  product: string;
  storable: boolean;
  product_uom_qty: number;
  quantity_done: number;
  reserved_availability: number;
  location_id: number;
  location_dest_id: number;
  src_internal: boolean;
  src_name: string;
  picking_id: number | null;
}

export async function moveRows(env: Env, where: string, params: unknown[]): Promise<MoveRow[]> {
  const loc = tbl(env, 'stock.location');
  const r = await env.q.query<MoveRow>(
    `SELECT mv.id, mv.state, mv.product_id, p.name AS product, p.type = 'product' AS storable,
        mv.product_uom_qty, mv.quantity_done, mv.reserved_availability, mv.location_id, mv.location_dest_id,
        s.usage = 'internal' AS src_internal, s.complete_name AS src_name, mv.picking_id
       FROM ${tbl(env, 'stock.move')} mv JOIN ${tbl(env, 'product.product')} p ON p.id = mv.product_id
       JOIN ${loc} s ON s.id = mv.location_id WHERE ${where} ORDER BY mv.id`,
    params,
  );
  return r.rows.map((m) => ({
    ...m,
    product_uom_qty: Number(m.product_uom_qty),
    quantity_done: Number(m.quantity_done),
    reserved_availability: Number(m.reserved_availability),
  }));
}

interface QuantRow {
  id: number;
  quantity: number;
  reserved_quantity: number;
}

/** The product's quant at the location, locked for the rest of the call (created empty when missing). */
async function quantAt(env: Env, product: number, location: number): Promise<QuantRow> {
  const sql = `SELECT id, quantity, reserved_quantity FROM ${tbl(env, 'stock.quant')}
    WHERE product_id = $1 AND location_id = $2 AND lot_id IS NULL AND package_id IS NULL ORDER BY id LIMIT 1 FOR UPDATE`;
  const found = await one<QuantRow>(env, sql, [product, location]);
  if (found) return { ...found, quantity: Number(found.quantity), reserved_quantity: Number(found.reserved_quantity) };
  const id = await createRecord(env, env.registry.get('stock.quant'), { product_id: product, location_id: location });
  return { id, quantity: 0, reserved_quantity: 0 };
}

/** Adds `delta` (negative: takes) to the quantity of the product at the location. */
export async function updateAvailable(env: Env, product: number, location: number, delta: number): Promise<void> {
  if (isZero(delta)) return;
  const q = await quantAt(env, product, location);
  await write(env, env.registry.get('stock.quant'), [q.id], { quantity: q.quantity + delta });
}

/** Reserves up to `want` of what is free at the location; answers what it reserved. */
export async function reserve(env: Env, product: number, location: number, want: number): Promise<number> {
  const q = await quantAt(env, product, location);
  const got = Math.max(0, Math.min(want, q.quantity - q.reserved_quantity));
  if (got > 0)
    await write(env, env.registry.get('stock.quant'), [q.id], { reserved_quantity: q.reserved_quantity + got });
  return got;
}

/** Releases a reservation (never below zero). */
export async function unreserve(env: Env, product: number, location: number, qty: number): Promise<void> {
  if (isZero(qty)) return;
  const q = await quantAt(env, product, location);
  await write(env, env.registry.get('stock.quant'), [q.id], {
    reserved_quantity: Math.max(0, q.reserved_quantity - qty),
  });
}

/**
 * Refuses a move that would take an internal location's stock of a storable product below zero.
 * Odoo 15 lets quants go negative; the embedded ERP does not (the platform's rule: stock goes
 * negative only by an explicit count, stock.quant action_apply_inventory).
 */
export async function checkEnough(env: Env, m: MoveRow, qty: number): Promise<void> {
  if (!m.src_internal || !m.storable) return;
  const q = await quantAt(env, m.product_id, m.location_id);
  if (q.quantity - qty < -0.0001) {
    throw userError(
      `Not enough ${m.product} in ${m.src_name}: ${q.quantity} on hand, ${qty} to move. Count the stock (inventory adjustment) first.`,
    );
  }
}

/**
 * After a count took the quant below what is reserved: the newest reservations are released until
 * the reserved quantity fits what is on hand (Odoo 15 `_free_reservation`). Answers the transfers
 * whose moves changed.
 */
export async function freeReservation(env: Env, product: number, location: number): Promise<number[]> {
  const q = await quantAt(env, product, location);
  let excess = q.reserved_quantity - Math.max(q.quantity, 0);
  if (excess <= 0.0001) return [];
  const moves = await moveRows(
    env,
    `mv.product_id = $1 AND mv.location_id = $2 AND mv.state IN ('assigned', 'partially_available')`,
    [product, location],
  );
  const touched: number[] = [];
  for (const mv of moves.reverse()) {
    if (excess <= 0.0001) break;
    const take = Math.min(excess, mv.reserved_availability);
    const left = mv.reserved_availability - take;
    await write(env, env.registry.get('stock.move'), [mv.id], {
      reserved_availability: left,
      state: left > 0.0001 ? 'partially_available' : 'confirmed',
    });
    excess -= take;
    if (mv.picking_id) touched.push(mv.picking_id);
  }
  await write(env, env.registry.get('stock.quant'), [q.id], {
    reserved_quantity: Math.max(q.quantity, 0) + Math.max(excess, 0),
  });
  return touched;
}
