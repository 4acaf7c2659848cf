import type { Erp } from '@platform/erp';
import { startTestErp, type TestErp } from '@platform/erp-embedded/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { draftPurchaseOrders } from './supply-erp.js';

let t: TestErp;
let erp: Erp;
let saleOrder: number;
let shades: number;
let shutters: number;
const NOW = new Date('2026-03-02T10:00:00Z');

beforeAll(async () => {
  t = await startTestErp();
  erp = t.erp;
  shades = await erp.create('res.partner', { name: 'Shade Mill', supplier_rank: 1 });
  shutters = await erp.create('res.partner', { name: 'Shutter Works', supplier_rank: 1 });
  const roller = await erp.create('product.product', { name: 'Roller shade', default_code: 'roller' });
  const shutter = await erp.create('product.product', { name: 'Shutter', default_code: 'shutter' });
  await erp.create('product.supplierinfo', { name: shades, product_id: roller, price: 80, delay: 10 });
  await erp.create('product.supplierinfo', { name: shutters, product_id: shutter, price: 200, delay: 21 });
  const customer = await erp.create('res.partner', { name: 'Priya Raman' });
  const line = (name: string, product_id: number) => [0, 0, { name, product_id, price_unit: 300 }];
  saleOrder = await erp.create('sale.order', {
    partner_id: customer,
    order_line: [
      line('Roller shade – Office\n46 1/8" W × 58 7/8" H, inside mount, White', roller),
      line('Shutter – Den\n27 1/8" W × 40" H, outside mount, Walnut', shutter),
      line('Roller shade – Kitchen\n35 1/2" W × 58 7/8" H, outside mount, Grey', roller),
      [0, 0, { name: 'Installation', price_unit: 90 }],
    ],
  });
  await erp.call('sale.order', 'action_confirm', [[saleOrder]]);
}, 60_000);
afterAll(async () => t?.close());

describe('drafting supplier orders from a confirmed sale order', () => {
  it('makes one draft purchase order per vendor with each window exactly as sold', async () => {
    const r = await draftPurchaseOrders(erp, saleOrder, NOW);
    expect(r.orders.map((o) => [o.partnerId, o.created])).toEqual([
      [shades, true],
      [shutters, true],
    ]);
    expect(r.unsourced).toHaveLength(1);
    const pos = await erp.searchRead('purchase.order', [['origin', '=', r.origin]], {
      fields: ['partner_id', 'state', 'date_planned', 'order_line'],
      order: 'id',
    });
    expect(pos.map((p) => [p.partner_id, p.state])).toEqual([
      [[shades, 'Shade Mill'], 'draft'],
      [[shutters, 'Shutter Works'], 'draft'],
    ]);
    expect(pos[1]!.date_planned).toBe('2026-03-23 10:00:00');
    const lines = await erp.read('purchase.order.line', pos[0]!.order_line as number[], ['name', 'price_unit']);
    expect(lines.map((l) => l.name)).toEqual([
      'Roller shade – Office\n46 1/8" W × 58 7/8" H, inside mount, White',
      'Roller shade – Kitchen\n35 1/2" W × 58 7/8" H, outside mount, Grey',
    ]);
    expect(lines.map((l) => l.price_unit)).toEqual([80, 80]);
  });

  it('run again, finds the orders it made and makes none', async () => {
    const r = await draftPurchaseOrders(erp, saleOrder, NOW);
    expect(r.orders.every((o) => !o.created)).toBe(true);
    expect(await erp.search('purchase.order', [['origin', '=', r.origin]])).toHaveLength(2);
  });
});
