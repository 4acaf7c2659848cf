import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ErpTest, odoo, startErpTest } from '../../testing/scratch-erp.js';

let T: ErpTest;
let stock: number;
let bracket: number;
let receipts: number;
let deliveries: number;

const product = (name: string) => T.x<number>('product.product', 'create', [{ name, type: 'product' }]);
const quantities = async (id: number) =>
  (
    await T.x<Record<string, number>[]>('product.product', 'read', [
      [id],
      ['qty_available', 'free_qty', 'incoming_qty', 'outgoing_qty', 'virtual_available'],
    ])
  )[0]!;
const picking = (type: number, lines: [number, number][], origin = 'test') =>
  T.x<number>('stock.picking', 'create', [
    {
      picking_type_id: type,
      origin,
      move_ids_without_package: lines.map(([p, qty]) => [0, 0, { product_id: p, product_uom_qty: qty }]),
    },
  ]);
const moves = (pick: number) =>
  T.x<Record<string, any>[]>('stock.move', 'search_read', [[['picking_id', '=', pick]]], {
    fields: ['state', 'product_uom_qty', 'quantity_done', 'reserved_availability'],
  });
const setDone = async (pick: number, qty?: number) => {
  for (const mv of await moves(pick))
    await T.x('stock.move', 'write', [[mv.id], { quantity_done: qty ?? mv.product_uom_qty }]);
};
const receive = async (p: number, qty: number) => {
  const pick = await picking(receipts, [[p, qty]]);
  await T.x('stock.picking', 'action_confirm', [[pick]]);
  await setDone(pick);
  return T.x('stock.picking', 'button_validate', [[pick]]);
};

beforeAll(async () => {
  T = await startErpTest('stock');
  stock = await T.ref('stock.stock_location_stock');
  receipts = await T.ref('stock.picking_type_in');
  deliveries = await T.ref('stock.picking_type_out');
  bracket = await product('Bracket');
});
afterAll(async () => T?.close());

describe('stock', () => {
  it('seeds WH/Stock and numbers receipts WH/IN/00001; a move takes its locations from the operation type, its unit from the product', async () => {
    const [loc] = await T.x<Record<string, unknown>[]>('stock.location', 'read', [[stock], ['complete_name', 'usage']]);
    expect(loc).toMatchObject({ complete_name: 'WH/Stock', usage: 'internal' });
    const pick = await picking(receipts, [[bracket, 1]]);
    const [r] = await T.x<Record<string, any>[]>('stock.picking', 'read', [
      [pick],
      ['name', 'state', 'location_dest_id', 'picking_type_code'],
    ]);
    expect(r).toMatchObject({ name: 'WH/IN/00001', state: 'draft', picking_type_code: 'incoming' });
    expect(r!.location_dest_id).toEqual([stock, 'WH/Stock']);
    await T.x('stock.picking', 'action_cancel', [[pick]]);
    const units = await T.ref('uom.product_uom_unit');
    const counted = await T.x<number>('product.product', 'create', [{ name: 'Clip', type: 'product', uom_id: units }]);
    const [mv] = await moves(await picking(receipts, [[counted, 4]]));
    const [full] = await T.x<Record<string, unknown>[]>('stock.move', 'read', [[mv!.id], ['name', 'product_uom']]);
    expect(full).toMatchObject({ name: 'Clip', product_uom: [units, 'Units'] });
  });

  it('a validated receipt adds to the quant; validating it again moves nothing more', async () => {
    const part = await product('Motor');
    const pick = await picking(receipts, [[part, 5]]);
    await T.x('stock.picking', 'action_confirm', [[pick]]);
    expect((await moves(pick))[0]!.state).toBe('assigned');
    expect(await quantities(part)).toMatchObject({ qty_available: 0, incoming_qty: 5, virtual_available: 5 });
    await setDone(pick);
    expect(await T.x('stock.picking', 'button_validate', [[pick]])).toBe(true);
    expect(await T.x('stock.picking', 'button_validate', [[pick]])).toBe(true);
    expect(await quantities(part)).toMatchObject({ qty_available: 5, incoming_qty: 0, virtual_available: 5 });
    const quants = await T.x<Record<string, any>[]>(
      'stock.quant',
      'search_read',
      [
        [
          ['product_id', '=', part],
          ['location_id', '=', stock],
        ],
      ],
      { fields: ['quantity', 'reserved_quantity', 'available_quantity'] },
    );
    expect(quants).toEqual([expect.objectContaining({ quantity: 5, reserved_quantity: 0, available_quantity: 5 })]);
    expect(await T.x('stock.move', 'search_count', [[['product_id', '=', part]]])).toBe(1);
  });

  it('reserves what is free when a delivery is assigned, and consumes the done quantity only', async () => {
    await receive(bracket, 6);
    const pick = await picking(deliveries, [[bracket, 4]]);
    await T.x('stock.picking', 'action_confirm', [[pick]]);
    await T.x('stock.picking', 'action_assign', [[pick]]);
    expect((await moves(pick))[0]).toMatchObject({ state: 'assigned', reserved_availability: 4 });
    expect(await quantities(bracket)).toMatchObject({ qty_available: 6, free_qty: 2, outgoing_qty: 4 });
    const other = await picking(deliveries, [[bracket, 3]]);
    await T.x('stock.picking', 'action_assign', [[other]]);
    expect((await moves(other))[0]).toMatchObject({ state: 'partially_available', reserved_availability: 2 });

    await setDone(pick, 2);
    await expect(T.x('stock.picking', 'button_validate', [[pick]])).rejects.toMatchObject(odoo('UserError'));
    await T.x('stock.picking', 'button_validate', [[pick]], { context: { skip_backorder: true } });
    const after = await moves(pick);
    expect(after.map((m) => [m.state, m.product_uom_qty])).toEqual([
      ['done', 2],
      ['cancel', 2],
    ]);
    expect(await quantities(bracket)).toMatchObject({ qty_available: 4, free_qty: 2 });
    await T.x('stock.picking', 'action_cancel', [[other]]);
    expect(await quantities(bracket)).toMatchObject({ qty_available: 4, free_qty: 4 });
  });

  it('refuses a transfer that would take stock below zero, and changes nothing', async () => {
    const part = await product('Remote');
    await receive(part, 1);
    const pick = await picking(deliveries, [[part, 3]]);
    await T.x('stock.picking', 'action_confirm', [[pick]]);
    await setDone(pick, 3);
    await expect(T.x('stock.picking', 'button_validate', [[pick]])).rejects.toMatchObject(
      odoo('UserError', 'Not enough Remote in WH/Stock: 1 on hand, 3 to move'),
    );
    expect(await quantities(part)).toMatchObject({ qty_available: 1 });
  });

  it('applies a count as an inventory move (the explicit adjustment), with its reason as the move name', async () => {
    const part = await product('Battery');
    const q = await T.x<number>('stock.quant', 'create', [
      { product_id: part, location_id: stock, inventory_quantity: 7 },
    ]);
    await T.x('stock.quant', 'action_apply_inventory', [[q]], { context: { inventory_name: 'Found in van' } });
    expect(await quantities(part)).toMatchObject({ qty_available: 7 });
    await T.x('stock.quant', 'write', [[q], { inventory_quantity: 2 }]);
    await T.x('stock.quant', 'action_apply_inventory', [[q]]);
    expect(await quantities(part)).toMatchObject({ qty_available: 2 });
    const log = await T.x<Record<string, any>[]>('stock.move', 'search_read', [[['product_id', '=', part]]], {
      fields: ['name', 'state', 'product_uom_qty', 'is_inventory'],
      order: 'id',
    });
    expect(log.map((m) => [m.name, m.state, m.product_uom_qty, m.is_inventory])).toEqual([
      ['Found in van', 'done', 7, true],
      ['Product Quantity Updated', 'done', 5, true],
    ]);
    await expect(T.x('stock.quant', 'write', [[q], { quantity: 100 }])).rejects.toMatchObject(
      odoo('UserError', "Quant's editing is restricted"),
    );
  });

  it('releases the newest reservations when a count leaves less than is reserved', async () => {
    const part = await product('Motor cable');
    await receive(part, 5);
    const older = await picking(deliveries, [[part, 2]]);
    const newer = await picking(deliveries, [[part, 3]]);
    await T.x('stock.picking', 'action_assign', [[older, newer]]);
    const [q] = await T.x<number[]>('stock.quant', 'search', [
      [
        ['product_id', '=', part],
        ['location_id', '=', stock],
      ],
    ]);
    await T.x('stock.quant', 'write', [[q], { inventory_quantity: 3 }]);
    await T.x('stock.quant', 'action_apply_inventory', [[q]]);
    expect(await quantities(part)).toMatchObject({ qty_available: 3, free_qty: 0 });
    expect((await moves(older))[0]).toMatchObject({ state: 'assigned', reserved_availability: 2 });
    expect((await moves(newer))[0]).toMatchObject({ state: 'partially_available', reserved_availability: 1 });
  });

  it('keeps reordering rules one per product and location', async () => {
    const wh = await T.ref('stock.warehouse0');
    const rule = { product_id: bracket, location_id: stock, warehouse_id: wh, product_min_qty: 5, product_max_qty: 20 };
    const id = await T.x<number>('stock.warehouse.orderpoint', 'create', [rule]);
    const [r] = await T.x<Record<string, unknown>[]>('stock.warehouse.orderpoint', 'read', [[id], ['name']]);
    expect(r!.name).toBe('OP/00001');
    await expect(T.x('stock.warehouse.orderpoint', 'create', [rule])).rejects.toMatchObject(odoo('ValidationError'));
  });
});
