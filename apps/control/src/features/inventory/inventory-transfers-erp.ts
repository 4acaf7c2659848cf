/**
 * Transfers in the tenant's ERP as Odoo 15 takes them over RPC (no onchange there): the first
 * warehouse's stock location and its receipt and delivery operation types with their default
 * locations, new transfers whose moves carry their name, unit and locations, and validation with
 * the done quantities and no backorder.
 */
import type { Erp } from '@platform/erp';
import { AppError } from '@platform/kernel';

export const idOf = (v: unknown): number | undefined => (Array.isArray(v) ? Number(v[0]) : undefined);

/** An operation type with its default locations (Odoo's moves need theirs given: no onchange over RPC). */
export interface OperationType {
  id: number;
  from: number;
  to: number;
}

export interface Warehouse {
  id: number;
  stock: number;
  receipts: OperationType;
  deliveries: OperationType;
}

/** The first warehouse: its stock location (WH/Stock) and its receipt and delivery operation types. */
export async function warehouseOf(erp: Erp): Promise<Warehouse> {
  const [wh] = await erp.searchRead('stock.warehouse', [], {
    fields: ['lot_stock_id', 'in_type_id', 'out_type_id'],
    order: 'sequence, id',
    limit: 1,
  });
  const [stock, inType, outType] = [wh?.lot_stock_id, wh?.in_type_id, wh?.out_type_id].map(idOf);
  if (!wh || !stock || !inType || !outType) throw new AppError('ERP_UNAVAILABLE', 'The ERP has no warehouse.');
  const types = await erp.read(
    'stock.picking.type',
    [inType, outType],
    ['default_location_src_id', 'default_location_dest_id'],
  );
  const typeOf = (id: number, from?: number, to?: number): OperationType => {
    const t = types.find((x) => x.id === id);
    return { id, from: idOf(t?.default_location_src_id) ?? from!, to: idOf(t?.default_location_dest_id) ?? to! };
  };
  return { id: wh.id, stock, receipts: typeOf(inType, undefined, stock), deliveries: typeOf(outType, stock) };
}

/**
 * A new transfer of `type` with a move per part (`qty`), as Odoo 15 takes it over RPC: the
 * transfer's and each move's locations, and each move's name and unit (the product's).
 */
export async function createTransfer(
  erp: Erp,
  type: OperationType,
  origin: string,
  parts: Map<number, number>,
  partner?: number,
): Promise<number> {
  return erp.create('stock.picking', {
    picking_type_id: type.id,
    location_id: type.from,
    location_dest_id: type.to,
    origin,
    ...(partner ? { partner_id: partner } : {}),
    move_ids_without_package: await moveCommands(erp, type, parts),
  });
}

/** `[0, 0, vals]` commands of new moves of `parts` (part → quantity) for a transfer of `type`. */
export async function moveCommands(erp: Erp, type: OperationType, parts: Map<number, number>) {
  const products = parts.size ? await erp.read('product.product', [...parts.keys()], ['name', 'uom_id']) : [];
  return [...parts].map(([part, qty]) => {
    const p = products.find((x) => x.id === part);
    const uom = idOf(p?.uom_id);
    return [
      0,
      0,
      {
        name: String(p?.name ?? part),
        product_id: part,
        product_uom_qty: qty,
        ...(uom ? { product_uom: uom } : {}),
        location_id: type.from,
        location_dest_id: type.to,
      },
    ];
  });
}

/**
 * Sets each move's done quantity from `done` (product → quantity; 0 for the others) and validates
 * without a backorder: what was not done is dropped, as Odoo's "No Backorder" does.
 */
export async function validateWithDone(erp: Erp, picking: number, done: Map<number, number>): Promise<void> {
  await erp.call('stock.picking', 'action_confirm', [[picking]]);
  const moves = await erp.searchRead('stock.move', [['picking_id', '=', picking]], { fields: ['product_id'] });
  for (const m of moves) await erp.write('stock.move', [m.id], { quantity_done: done.get(idOf(m.product_id)!) ?? 0 });
  await erp.call('stock.picking', 'button_validate', [[picking]], {
    context: { skip_backorder: true, picking_ids_not_to_backorder: [picking] },
  });
}
