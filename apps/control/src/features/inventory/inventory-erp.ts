/**
 * Stocked parts in the tenant's ERP, through the Erp port with standard Odoo 15 calls only, so the
 * same code runs against Odoo and the embedded ERP: a part is a storable `product.product`
 * (type "product") whose vendor is its first `product.supplierinfo`, its reorder point a
 * `stock.warehouse.orderpoint` on the warehouse's stock location, its stock the `stock.quant`s of
 * internal locations. A count is Odoo 15's inventory mode (`inventory_quantity` then
 * `action_apply_inventory`, the reason as `inventory_name`); a receipt is a validated incoming
 * `stock.picking`.
 */
import type { NewPart, PartLocationStock, PartView } from '@platform/contracts/inventory.js';
import { fromMinor, toMinor } from '@platform/contracts/money.js';
import type { Erp, ErpRecord } from '@platform/erp';
import { AppError } from '@platform/kernel';

import { setProductSupply } from '../supply/supplier-products-erp.js';
import { createTransfer, idOf, validateWithDone, warehouseOf } from './inventory-transfers-erp.js';

const nameOf = (v: unknown) => (Array.isArray(v) ? String(v[1]) : '');
const text = (v: unknown) => (typeof v === 'string' && v ? v : null);
const qty = (v: unknown) => Math.round(Number(v ?? 0) * 1000) / 1000;

const noPart = () => new AppError('NOT_FOUND', 'No such part.');

/** The stocked parts (all, or `ids`), with their vendor, reorder point and stock per internal location. */
export async function listParts(erp: Erp, currency: string, ids?: number[]): Promise<PartView[]> {
  const domain: unknown[] = [['type', '=', 'product']];
  if (ids) domain.push(['id', 'in', ids]);
  const products = await erp.searchRead('product.product', domain as never, {
    fields: ['name', 'default_code'],
    order: 'name, id',
    limit: 1000,
  });
  const pids = products.map((p) => p.id);
  if (!pids.length) return [];
  const inPids = [['product_id', 'in', pids]] as never;
  const [quants, sellers, rules] = await Promise.all([
    erp.searchRead('stock.quant', [...(inPids as unknown[]), ['location_id.usage', '=', 'internal']] as never, {
      fields: ['product_id', 'location_id', 'quantity', 'reserved_quantity'],
    }),
    erp.searchRead('product.supplierinfo', inPids, {
      fields: ['name', 'product_id', 'product_code', 'price'],
      order: 'sequence, id',
    }),
    erp.searchRead('stock.warehouse.orderpoint', inPids, {
      fields: ['product_id', 'product_min_qty', 'product_max_qty'],
    }),
  ]);
  const first = (rows: ErpRecord[], pid: number) => rows.find((r) => idOf(r.product_id) === pid);
  return products.map((p) => {
    const locations: PartLocationStock[] = quants
      .filter((q) => idOf(q.product_id) === p.id)
      .map((q) => ({
        location: nameOf(q.location_id),
        on_hand: qty(q.quantity),
        reserved: qty(q.reserved_quantity),
        available: qty(Number(q.quantity) - Number(q.reserved_quantity)),
      }));
    const sum = (k: 'on_hand' | 'reserved') => qty(locations.reduce((s, l) => s + l[k], 0));
    const seller = first(sellers, p.id);
    const rule = first(rules, p.id);
    const [onHand, reserved] = [sum('on_hand'), sum('reserved')];
    const min = qty(rule?.product_min_qty);
    return {
      id: p.id,
      name: String(p.name),
      code: text(p.default_code),
      supplier: seller && Array.isArray(seller.name) ? { id: idOf(seller.name)!, name: nameOf(seller.name) } : null,
      supplier_code: text(seller?.product_code),
      cost_minor: seller ? toMinor(Number(seller.price ?? 0), currency) : null,
      reorder_min: min,
      reorder_max: qty(rule?.product_max_qty),
      on_hand: onHand,
      reserved,
      available: qty(onHand - reserved),
      below_min: rule !== undefined && onHand - reserved < min,
      locations,
    };
  });
}

export async function partOf(erp: Erp, id: number, currency: string): Promise<PartView> {
  const [part] = await listParts(erp, currency, [id]);
  if (!part) throw noPart();
  return part;
}

/** A new storable part with its vendor and reorder rule; a part with this code already is answered as it is. */
export async function createPart(erp: Erp, input: NewPart & { code: string }, currency: string): Promise<PartView> {
  const [existing] = await erp.search('product.product', [['default_code', '=', input.code]], { limit: 1 });
  if (existing) return partOf(erp, existing, currency);
  // Odoo's default unit is "Units": given here so both ERPs' moves of the part name it.
  const [units] = await erp.search('uom.uom', [['name', '=', 'Units']], { limit: 1 });
  const id = await erp.create('product.product', {
    ...(units ? { uom_id: units, uom_po_id: units } : {}),
    name: input.name,
    default_code: input.code,
    type: 'product',
    sale_ok: false,
    purchase_ok: true,
    standard_price: fromMinor(input.cost_minor, currency),
  });
  await setProductSupply(
    erp,
    input.code,
    {
      supplier_id: input.supplier_id,
      supplier_code: input.supplier_code ?? null,
      cost_minor: input.cost_minor,
      lead_days: 1,
    },
    currency,
  );
  const wh = await warehouseOf(erp);
  await erp.create('stock.warehouse.orderpoint', {
    product_id: id,
    warehouse_id: wh.id,
    location_id: wh.stock,
    product_min_qty: input.reorder_min,
    product_max_qty: input.reorder_max,
  });
  return partOf(erp, id, currency);
}

/** Odoo 15's count: the counted quantity on the part's quant in WH/Stock, applied with the reason. */
export async function adjustPart(erp: Erp, id: number, counted: number, reason: string): Promise<void> {
  const wh = await warehouseOf(erp);
  const ctx = { inventory_mode: true };
  const [quant] = await erp.search('stock.quant', [
    ['product_id', '=', id],
    ['location_id', '=', wh.stock],
  ]);
  const q =
    quant ??
    (await erp.create('stock.quant', { product_id: id, location_id: wh.stock, inventory_quantity: counted }, ctx));
  if (quant) await erp.write('stock.quant', [quant], { inventory_quantity: counted });
  await erp.call('stock.quant', 'action_apply_inventory', [[q]], { context: { ...ctx, inventory_name: reason } });
}

/** A receipt of `qty` into WH/Stock, validated: the stock rises by `qty`. Answers the receipt's name. */
export function receivePart(erp: Erp, id: number, count: number, origin: string): Promise<string> {
  return receiveParts(erp, new Map([[id, count]]), origin);
}

/** One validated receipt into WH/Stock of several parts (part → quantity). Answers its name. */
export async function receiveParts(erp: Erp, parts: Map<number, number>, origin: string): Promise<string> {
  const wh = await warehouseOf(erp);
  const picking = await createTransfer(erp, wh.receipts, origin, parts);
  await validateWithDone(erp, picking, parts);
  const [r] = await erp.read('stock.picking', [picking], ['name']);
  return String(r?.name ?? '');
}

/** Of these products, the stocked parts (storable: type "product"); a made-to-measure window is not one. */
export function stockedAmong(erp: Erp, productIds: number[]): Promise<number[]> {
  if (!productIds.length) return Promise.resolve([]);
  return erp.search('product.product', [
    ['id', 'in', productIds],
    ['type', '=', 'product'],
  ]);
}

/** Whether a done receipt with this origin exists (a keyed receipt that was already put in stock). */
export async function receiptDone(erp: Erp, origin: string): Promise<boolean> {
  const found = await erp.search(
    'stock.picking',
    [
      ['origin', '=', origin],
      ['state', '=', 'done'],
    ],
    { limit: 1 },
  );
  return found.length > 0;
}
