/**
 * Reserving and consuming parts in the tenant's ERP (standard Odoo 15 calls): a confirmed sale
 * order's parts are one delivery `stock.picking` (origin: the order's name) confirmed and assigned,
 * so its quants are reserved; an install job's parts used validate that delivery with the used
 * quantities as done (what was reserved and not used is released). Find-before-create by origin:
 * a job retried, or parts sent twice, make one picking and one move per part.
 */
import type { Erp } from '@platform/erp';

import { createTransfer, idOf, moveCommands, validateWithDone, warehouseOf } from './inventory-transfers-erp.js';

/** The sale order's windows as product code → number of windows (down-payment lines are money, not windows). */
export async function windowsOfOrder(erp: Erp, saleOrderId: number) {
  const [so] = await erp.read('sale.order', [saleOrderId], ['name', 'state', 'partner_id']);
  const lines = await erp.searchRead(
    'sale.order.line',
    [
      ['order_id', '=', saleOrderId],
      ['is_downpayment', '=', false],
    ],
    { fields: ['product_id', 'product_uom_qty'] },
  );
  const pids = [...new Set(lines.map((l) => idOf(l.product_id)).filter((x): x is number => x !== undefined))];
  const codes = new Map(
    (pids.length ? await erp.read('product.product', pids, ['default_code']) : []).map((p) => [p.id, p.default_code]),
  );
  const windows = new Map<string, number>();
  for (const l of lines) {
    const code = codes.get(idOf(l.product_id) ?? -1);
    if (typeof code === 'string' && code) windows.set(code, (windows.get(code) ?? 0) + Number(l.product_uom_qty ?? 1));
  }
  return { name: String(so?.name ?? ''), state: String(so?.state ?? ''), partner: idOf(so?.partner_id), windows };
}

async function deliveryOf(erp: Erp, origin: string | string[], state: unknown[]) {
  const wh = await warehouseOf(erp);
  const [id] = await erp.search(
    'stock.picking',
    [['picking_type_id', '=', wh.deliveries.id], ['origin', 'in', [origin].flat()], state] as never,
    { limit: 1, order: 'id' },
  );
  return { id, wh };
}

/** The order's delivery of `needs` (part → quantity), confirmed and reserved; an existing one is kept. */
export async function reserveParts(
  erp: Erp,
  origin: string,
  partner: number | undefined,
  needs: Map<number, number>,
): Promise<{ pickingId: number; created: boolean }> {
  const { id: found, wh } = await deliveryOf(erp, origin, ['state', '!=', ['cancel']]);
  if (found) return { pickingId: found, created: false };
  const pickingId = await createTransfer(erp, wh.deliveries, origin, needs, partner);
  await erp.call('stock.picking', 'action_confirm', [[pickingId]]);
  await erp.call('stock.picking', 'action_assign', [[pickingId]]);
  return { pickingId, created: true };
}

/** What the job consumed already (its delivery, named by `done`, is done): part → quantity; undefined if not yet. */
export async function consumedParts(erp: Erp, done: string): Promise<Map<number, number> | undefined> {
  const { id } = await deliveryOf(erp, done, ['state', '=', 'done']);
  if (!id) return undefined;
  const moves = await erp.searchRead(
    'stock.move',
    [
      ['picking_id', '=', id],
      ['state', '=', 'done'],
    ],
    { fields: ['product_id', 'quantity_done'] },
  );
  return new Map(moves.map((m) => [idOf(m.product_id)!, Number(m.quantity_done)]));
}

/**
 * The parts used on a job: the order's open delivery (or a new one named after the job) gets the
 * used quantities as done and is validated. `done` is the job's key (`origin` once consumed): a
 * second call finds it and moves nothing.
 */
export async function consumeParts(
  erp: Erp,
  orderOrigin: string | null,
  done: string,
  used: Map<number, number>,
): Promise<{ pickingId: number; replayed: boolean }> {
  const consumed = await deliveryOf(erp, done, ['state', '=', 'done']);
  if (consumed.id) return { pickingId: consumed.id, replayed: true };
  // The job's key is written before validating: a call that failed after it finds its delivery again.
  const origins = orderOrigin ? [done, orderOrigin] : [done];
  const { id: open } = await deliveryOf(erp, origins, ['state', 'not in', ['done', 'cancel']]);
  const pickingId = open ?? (await createTransfer(erp, consumed.wh.deliveries, done, new Map()));
  const moves = await erp.searchRead('stock.move', [['picking_id', '=', pickingId]], { fields: ['product_id'] });
  const has = new Set(moves.map((m) => idOf(m.product_id)));
  const extra = new Map([...used].filter(([part]) => !has.has(part)));
  if (extra.size)
    await erp.write('stock.picking', [pickingId], {
      move_ids_without_package: await moveCommands(erp, consumed.wh.deliveries, extra),
    });
  await erp.write('stock.picking', [pickingId], { origin: done });
  await validateWithDone(erp, pickingId, used);
  return { pickingId, replayed: false };
}
