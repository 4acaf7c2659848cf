/**
 * Stock through the routes, against a real embedded ERP per tenant: a part received twice with one
 * key is received once; an accepted quote of three roller shades (two brackets each) reserves six;
 * the part falls under its reorder point and the reorder list drafts one purchase order to its
 * vendor however often it is asked; the fitter's two brackets are consumed once; a consumption past
 * the stock is refused naming the part; a count with a reason sets the stock; receiving the reorder's
 * purchase order puts the parts in stock, once per key; a plan without `inventory` is refused.
 */
import { randomUUID } from 'node:crypto';

import type { PartView } from '@platform/contracts/inventory.js';
import { createLogger } from '@platform/http-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type CrmSalesKit, startCrmSalesKit } from '../../testing/crm-sales-kit.js';
import { png } from '../../testing/png.js';

let k: CrmSalesKit;
let vendor: number;
let bracket: PartView;
let jobId: string;
let reorderPo: number;
const part = async (id = bracket.id) =>
  ((await k.call('GET', '/inventory/parts', k.a.office)).body.items as PartView[]).find((p) => p.id === id)!;
const window = (room: string) => ({
  ...{ product_code: 'roller-shade', room, width_in: 30, drop_in: 48, mount: 'inside', colour: 'White', options: [] },
});

beforeAll(async () => {
  k = await startCrmSalesKit();
  vendor = (await k.call('POST', '/supply/suppliers', k.a.owner, { name: 'Bracket Co', email: 'o@bracket.test' })).body
    .id;
  const made = await k.call('POST', '/inventory/parts', k.a.office, {
    ...{ name: 'Steel bracket', supplier_id: vendor, supplier_code: 'BC-7', cost_minor: 350 },
    ...{ reorder_min: 5, reorder_max: 20 },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  bracket = made.body;
}, 120_000);
afterAll(async () => k?.close());

describe('stock', () => {
  it('lists a new part with its vendor, cost and reorder point, and nothing in stock', async () => {
    expect(bracket).toMatchObject({
      name: 'Steel bracket',
      code: 'PART-STEEL-BRACKET',
      supplier: { id: vendor, name: 'Bracket Co' },
      supplier_code: 'BC-7',
      cost_minor: 350,
      reorder_min: 5,
      reorder_max: 20,
      on_hand: 0,
      below_min: true,
    });
  });

  it('shows technicians the parts without their costs or vendors', async () => {
    const r = await k.call('GET', '/inventory/parts', k.a.technician);
    expect(r.status).toBe(200);
    expect(r.body.items).toEqual([
      expect.objectContaining({ id: bracket.id, name: 'Steel bracket', supplier: null, cost_minor: null }),
    ]);
  });

  it('receives once for a receipt sent twice with the same Idempotency-Key', async () => {
    const send = () =>
      k.call('POST', `/inventory/parts/${bracket.id}/receive`, k.a.office, { qty: 10 }, { 'idempotency-key': 'rcv-1' });
    const first = await send();
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect((await send()).body).toEqual(first.body);
    expect(await part()).toMatchObject({ on_hand: 10, reserved: 0, available: 10, below_min: false });
    expect((await part()).locations).toEqual([{ location: 'WH/Stock', on_hand: 10, reserved: 0, available: 10 }]);
    expect(await k.a.erp.erp.searchCount('stock.move', [['product_id', '=', bracket.id]])).toBe(1);
  });

  it("reserves a confirmed order's parts once (two brackets per roller shade), putting the part on the reorder list", async () => {
    const put = await k.call('PUT', '/inventory/products/roller-shade/parts', k.a.office, {
      parts: [{ part_id: bracket.id, qty_per_window: 2 }],
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const q = await k.call('POST', '/sales/quotes', k.a.office, {
      customer: { name: 'Priya Raman', email: 'priya@example.com' },
      lines: [window('Office'), window('Den'), window('Hall')],
    });
    const sent = await k.call('POST', `/sales/quotes/${q.body.id}/send`, k.a.office);
    const accept = () =>
      k.call(
        'POST',
        `/portal/quotes/${sent.body.token}/accept`,
        undefined,
        { name: 'Priya', signature_png_base64: png() },
        { 'x-tenant-id': k.a.id },
      );
    expect((await accept()).status).toBe(200);
    await accept();
    const relay = k.kit.deps.inventory.relay(createLogger('silent'));
    await relay.tick();
    await relay.tick();
    expect(await part()).toMatchObject({ on_hand: 10, reserved: 6, available: 4, below_min: true });
    const reorder = await k.call('GET', '/inventory/reorder', k.a.office);
    expect(reorder.body.items).toEqual([expect.objectContaining({ suggested_qty: 16 })]);
    const saleOrder = (await k.call('GET', `/sales/quotes/${q.body.id}`, k.a.office)).body.sale_order_id;
    const [so] = await k.a.erp.erp.read('sale.order', [saleOrder], ['partner_id']);
    const job = await k.call('POST', '/jobs', k.a.office, {
      partner_id: (so!.partner_id as [number, string])[0],
      address: { street: '1 Main St', city: 'Denver', zip: '80211' },
      sale_order_id: saleOrder,
    });
    jobId = job.body.id;
  });

  it('drafts one purchase order to the vendor from the reorder list, however often asked', async () => {
    const first = await k.call('POST', '/inventory/reorder/purchase-orders', k.a.office, {});
    expect(first.body.purchase_orders).toEqual([expect.objectContaining({ supplier: 'Bracket Co', created: true })]);
    const again = await k.call('POST', '/inventory/reorder/purchase-orders', k.a.office, {});
    expect(again.body.purchase_orders).toEqual([{ ...first.body.purchase_orders[0], created: false }]);
    reorderPo = first.body.purchase_orders[0].id;
    const [line] = await k.a.erp.erp.searchRead(
      'purchase.order.line',
      [['order_id', '=', first.body.purchase_orders[0].id]],
      {
        fields: ['name', 'product_qty', 'price_unit'],
      },
    );
    expect(line).toMatchObject({ name: '[BC-7] Steel bracket', product_qty: 16, price_unit: 3.5 });
  });

  it('consumes the two brackets the fitter used once, releasing the rest of the reservation', async () => {
    const used = { parts: [{ part_id: bracket.id, qty: 2 }] };
    const r = await k.call('POST', `/jobs/${jobId}/parts-used`, k.a.office, used);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toEqual({ job_id: jobId, parts: [{ part_id: bracket.id, qty: 2, name: 'Steel bracket' }] });
    expect((await k.call('POST', `/jobs/${jobId}/parts-used`, k.a.office, used)).status).toBe(201);
    // Sent again with other quantities (another phone): the answer is what was consumed, nothing moves.
    const other = await k.call('POST', `/jobs/${jobId}/parts-used`, k.a.office, {
      parts: [{ part_id: bracket.id, qty: 5 }],
    });
    expect(other.body.parts).toEqual([{ part_id: bracket.id, qty: 2, name: 'Steel bracket' }]);
    expect(await part()).toMatchObject({ on_hand: 8, reserved: 0, available: 8 });
    const done = await k.a.erp.erp.searchCount('stock.move', [
      ['product_id', '=', bracket.id],
      ['state', '=', 'done'],
    ]);
    expect(done).toBe(2);
  });

  it('refuses a consumption past the stock naming the part, and a count with a reason sets it', async () => {
    const job = await k.call('POST', '/jobs', k.a.office, {
      customer: { name: 'Ann', email: 'ann@example.com' },
      address: { street: '2 Main St', city: 'Denver', zip: '80211' },
    });
    const over = await k.call('POST', `/jobs/${job.body.id}/parts-used`, k.a.office, {
      parts: [{ part_id: bracket.id, qty: 9 }],
    });
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ code: 'STOCK_INSUFFICIENT', part: 'Steel bracket', on_hand: 8, requested: 9 });
    expect(over.body.detail).toContain('Steel bracket');
    const count = await k.call('POST', `/inventory/parts/${bracket.id}/adjust`, k.a.office, {
      quantity: 3,
      reason: 'Van stock recount',
    });
    expect(count.status, JSON.stringify(count.body)).toBe(200);
    expect(count.body).toMatchObject({ on_hand: 3, below_min: true });
    const [move] = await k.a.erp.erp.searchRead('stock.move', [['product_id', '=', bracket.id]], {
      fields: ['name', 'product_uom_qty'],
      order: 'id desc',
      limit: 1,
    });
    expect(move).toMatchObject({ name: 'Van stock recount', product_uom_qty: 5 });
  });

  it('puts the parts of a received reorder into stock: one validated receipt per receipt, once per key', async () => {
    expect((await k.call('POST', `/purchase-orders/${reorderPo}/confirm`, k.a.office)).status).toBe(200);
    const [line] = await k.a.erp.erp.search('purchase.order.line', [['order_id', '=', reorderPo]]);
    const receive = (qty: number, key: string) =>
      k.call(
        'POST',
        `/purchase-orders/${reorderPo}/receive`,
        k.a.office,
        { lines: [{ line_id: line, qty }] },
        {
          'idempotency-key': key,
        },
      );
    const first = await receive(6, 'po-rcv-1');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect((await receive(6, 'po-rcv-1')).body).toEqual(first.body);
    expect(await part()).toMatchObject({ on_hand: 9 }); // the count's 3, and 6 received once
    expect((await receive(10, 'po-rcv-2')).body.status).toBe('received');
    expect(await part()).toMatchObject({ on_hand: 19, below_min: false });
    const receipts = await k.a.erp.erp.searchRead('stock.picking', [], {
      fields: ['origin', 'state'],
      order: 'id',
    });
    expect(receipts.filter((r) => String(r.origin).endsWith('po-rcv-1'))).toEqual([
      expect.objectContaining({ state: 'done' }),
    ]);
    expect(receipts.filter((r) => String(r.origin).endsWith('po-rcv-2'))).toHaveLength(1);
    // A keyed retry after a failure between the stock receipt and the order's update: nothing more in stock.
    const office = { userId: randomUUID(), tenantId: k.a.id, role: 'office', email: 'o@a.test' } as const;
    const origin = String(receipts.find((r) => String(r.origin).endsWith('po-rcv-1'))!.origin);
    await k.kit.deps.inventory.service.receivePurchased(office, origin, new Map([[bracket.id, 6]]), true);
    expect(await part()).toMatchObject({ on_hand: 19 });
  });

  it('answers bad input with a problem naming the field', async () => {
    const r = await k.call('POST', `/inventory/parts/${bracket.id}/adjust`, k.a.office, { quantity: -1, reason: '' });
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['quantity', 'reason']);
  });

  it('refuses a plan without inventory with PLAN_FEATURE_MISSING naming the plan that has it', async () => {
    const t = await k.kit.tenant('starter-shades', 'starter');
    for (const [method, url] of [
      ['GET', '/inventory/parts'],
      ['GET', '/inventory/reorder'],
    ] as const) {
      const r = await k.call(method, url, t.token);
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ code: 'PLAN_FEATURE_MISSING', required_plan: 'professional' });
    }
  });
});
