/**
 * stock.picking and stock.quant methods (Odoo 15 `stock`): action_confirm (receipts from a vendor
 * are reserved at once, as Odoo does for non-internal sources), action_assign (reserve what is free),
 * button_validate (the done quantities move, quants change; validating a done transfer changes
 * nothing), action_cancel, and the quant's action_apply_inventory (a counted quantity becomes an
 * inventory move). Partial validation needs the context `skip_backorder` (Odoo's "No Backorder"):
 * the embedded ERP has no backorder wizard.
 */
import { userError } from '../../errors.js';
import type { ModelDef } from '../../registry.js';
import type { Env } from '../env.js';
import { isZero, nowUtc, one, refId, rows, tbl } from '../lookup.js';
import { createRecord, write } from '../write.js';
import { type Action, lockRecords, recordMethod } from './common.js';
import { checkEnough, freeReservation, moveRows, reserve, unreserve, updateAvailable } from './stock-quants.js';

const MOVES = 'stock.move';
const movesOf = (env: Env, pickings: number[]) => moveRows(env, 'mv.picking_id = ANY($1::integer[])', [pickings]);
const setMove = (env: Env, id: number, vals: Record<string, unknown>) =>
  write(env, env.registry.get(MOVES), [id], vals);

/** Odoo 15 `_compute_state` of a picking from its moves (shipping policy "as soon as possible"). */
async function syncState(env: Env, pickings: number[]): Promise<void> {
  const m = env.registry.get('stock.picking');
  for (const id of pickings) {
    const states = (await movesOf(env, [id])).map((x) => x.state);
    const live = states.filter((s) => s !== 'cancel');
    let state: string;
    if (states.length && !live.length) state = 'cancel';
    else if (live.length && live.every((s) => s === 'done')) state = 'done';
    else if (!live.length || live.some((s) => s === 'draft')) state = 'draft';
    else if (live.some((s) => s === 'assigned' || s === 'partially_available')) state = 'assigned';
    else state = 'confirmed';
    await write(env, m, [id], { state, ...(state === 'done' ? { date_done: nowUtc() } : {}) });
  }
}

async function assignMoves(env: Env, pickings: number[]): Promise<void> {
  for (const mv of await movesOf(env, pickings)) {
    if (mv.state !== 'confirmed' && mv.state !== 'partially_available') continue;
    const missing = mv.product_uom_qty - mv.reserved_availability;
    const got = mv.src_internal && mv.storable ? await reserve(env, mv.product_id, mv.location_id, missing) : missing;
    const reserved = mv.reserved_availability + got;
    const state =
      reserved >= mv.product_uom_qty - 0.0001 ? 'assigned' : reserved > 0 ? 'partially_available' : 'confirmed';
    await setMove(env, mv.id, { reserved_availability: reserved, state });
  }
}

async function confirm(env: Env, m: ModelDef, ids: number[]): Promise<true> {
  const pickings = await lockRecords<{ id: number; state: string }>(env, m, ids, ['state']);
  for (const mv of await movesOf(env, ids)) if (mv.state === 'draft') await setMove(env, mv.id, { state: 'confirmed' });
  const fromOutside = await rows<{ id: number }>(
    env,
    `SELECT p.id FROM ${tbl(env, m.name)} p JOIN ${tbl(env, 'stock.location')} l ON l.id = p.location_id
      WHERE p.id = ANY($1::integer[]) AND l.usage IN ('supplier', 'inventory', 'production')`,
    [ids],
  );
  await assignMoves(
    env,
    fromOutside.map((p) => p.id),
  );
  await syncState(
    env,
    pickings.map((p) => p.id),
  );
  return true;
}

async function assign(env: Env, m: ModelDef, ids: number[]): Promise<true> {
  const pickings = await lockRecords<{ id: number; state: string }>(env, m, ids, ['state']);
  if (pickings.some((p) => p.state === 'draft')) await confirm(env, m, ids);
  await assignMoves(env, ids);
  await syncState(env, ids);
  return true;
}

/** Moves the done quantity of each move (a remainder is split off and cancelled), then the quants. */
async function validate(env: Env, m: ModelDef, ids: number[]): Promise<true> {
  const open = (await lockRecords<{ id: number; state: string }>(env, m, ids, ['state'])).filter(
    (p) => p.state !== 'done' && p.state !== 'cancel',
  );
  const todo = open.map((p) => p.id);
  if (!todo.length) return true;
  if (open.some((p) => p.state === 'draft')) await confirm(env, m, todo);
  const moves = (await movesOf(env, todo)).filter((x) => x.state !== 'done' && x.state !== 'cancel');
  if (moves.every((x) => isZero(x.quantity_done))) {
    throw userError(
      'You cannot validate a transfer if no quantities are reserved nor done. To force the transfer, switch in edit mode and encode the done quantities.',
    );
  }
  const partial = moves.some((x) => x.quantity_done < x.product_uom_qty - 0.0001);
  if (partial && !env.context.skip_backorder) {
    throw userError(
      'Some quantities are not done: validate with the context skip_backorder (no backorder) or set the done quantities.',
    );
  }
  // Per product and source together: two moves of the same part must fit the stock between them.
  const needs = new Map<string, { mv: (typeof moves)[number]; qty: number }>();
  for (const mv of moves) {
    const key = `${mv.product_id}/${mv.location_id}`;
    needs.set(key, { mv, qty: (needs.get(key)?.qty ?? 0) + mv.quantity_done });
  }
  for (const { mv, qty } of needs.values()) await checkEnough(env, mv, qty);
  for (const mv of moves) {
    if (mv.storable && mv.src_internal) await unreserve(env, mv.product_id, mv.location_id, mv.reserved_availability);
    if (isZero(mv.quantity_done)) {
      await setMove(env, mv.id, { state: 'cancel', reserved_availability: 0 });
      continue;
    }
    const rest = mv.product_uom_qty - mv.quantity_done;
    if (rest > 0.0001) {
      const [copy] = await rows<Record<string, unknown>>(
        env,
        `SELECT name, product_id, location_id, location_dest_id, picking_id, picking_type_id, company_id
           FROM ${tbl(env, MOVES)} WHERE id = $1`,
        [mv.id],
      );
      const split = await createRecord(env, env.registry.get(MOVES), { ...copy, product_uom_qty: rest });
      await setMove(env, split, { state: 'cancel' });
    }
    await updateAvailable(env, mv.product_id, mv.location_id, -mv.quantity_done);
    await updateAvailable(env, mv.product_id, mv.location_dest_id, mv.quantity_done);
    await setMove(env, mv.id, {
      state: 'done',
      product_uom_qty: rest > 0.0001 ? mv.quantity_done : mv.product_uom_qty,
      reserved_availability: 0,
      date: nowUtc(),
    });
  }
  await syncState(env, todo);
  return true;
}

async function cancel(env: Env, m: ModelDef, ids: number[]): Promise<true> {
  await lockRecords(env, m, ids, ['state']);
  for (const mv of await movesOf(env, ids)) {
    if (mv.state === 'done' || mv.state === 'cancel') continue;
    if (mv.storable && mv.src_internal) await unreserve(env, mv.product_id, mv.location_id, mv.reserved_availability);
    await setMove(env, mv.id, { state: 'cancel', reserved_availability: 0 });
  }
  await syncState(env, ids);
  return true;
}

/** Odoo 15 `action_apply_inventory`: each counted quant gets a done move from or to Inventory adjustment. */
async function applyInventory(env: Env, m: ModelDef, ids: number[]): Promise<null> {
  await lockRecords(env, m, ids, ['quantity']);
  const loss = await refId(env, 'stock.location_inventory', 'stock.location');
  if (!loss) throw userError('The location stock.location_inventory is missing.');
  const name = typeof env.context.inventory_name === 'string' ? env.context.inventory_name : 'Product Quantity Updated';
  const quants = await rows<{ id: number; product_id: number; location_id: number; diff: number; set: boolean }>(
    env,
    `SELECT id, product_id, location_id, inventory_quantity - quantity AS diff, inventory_quantity_set AS set
       FROM ${tbl(env, m.name)} WHERE id = ANY($1::integer[]) ORDER BY id`,
    [ids],
  );
  for (const q of quants) {
    const diff = Number(q.diff);
    if (q.set && !isZero(diff)) {
      const [from, to] = diff > 0 ? [loss, q.location_id] : [q.location_id, loss];
      const company = await one<{ company_id: number | null }>(
        env,
        `SELECT company_id FROM ${tbl(env, 'stock.location')} WHERE id = $1`,
        [q.location_id],
      );
      await createRecord(env, env.registry.get(MOVES), {
        name,
        product_id: q.product_id,
        product_uom_qty: Math.abs(diff),
        quantity_done: Math.abs(diff),
        location_id: from,
        location_dest_id: to,
        is_inventory: true,
        state: 'done',
        ...(company?.company_id ? { company_id: company.company_id } : {}),
      });
      await updateAvailable(env, q.product_id, from, -Math.abs(diff));
      await updateAvailable(env, q.product_id, to, Math.abs(diff));
      if (diff < 0) await syncState(env, await freeReservation(env, q.product_id, q.location_id));
    }
    await write(env, m, [q.id], { inventory_quantity: 0, inventory_quantity_set: false });
  }
  return null;
}

export const pickingActions: Record<string, Action> = {
  action_confirm: recordMethod((env, m, ids) => confirm(env, m, ids)),
  action_assign: recordMethod((env, m, ids) => assign(env, m, ids)),
  button_validate: recordMethod((env, m, ids) => validate(env, m, ids)),
  action_cancel: recordMethod((env, m, ids) => cancel(env, m, ids)),
};

export const quantActions: Record<string, Action> = {
  action_apply_inventory: recordMethod((env, m, ids) => applyInventory(env, m, ids)),
};
