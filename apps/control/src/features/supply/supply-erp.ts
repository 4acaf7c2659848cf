/**
 * Supplier orders in the tenant's ERP, through the Erp port only (Odoo 15 and the embedded ERP speak
 * the same fields): a confirmed sale order's windows become one draft `purchase.order` per vendor
 * (the product's first `product.supplierinfo`), a line per window carrying the sale line's full text
 * (size, mount, colour, options). Find-before-create by `origin` (the sale order's name) and vendor:
 * a job run twice, or resumed after a crash, never makes a second order for the same vendor.
 */
import type { Erp, ErpRecord } from '@platform/erp';

const idOf = (v: unknown): number | undefined => (Array.isArray(v) ? Number(v[0]) : undefined);
const DAY_MS = 86_400_000;

/** An ERP datetime (`YYYY-MM-DD HH:MM:SS`, UTC). */
export const erpDateTime = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');

export interface Vendor {
  partnerId: number;
  price: number;
  delay: number;
}

/** Each product's vendor: its supplier line of the lowest sequence (Odoo's `_select_seller` order). */
export async function vendorsOf(erp: Erp, productIds: number[]): Promise<Map<number, Vendor>> {
  const rows = productIds.length
    ? await erp.searchRead('product.supplierinfo', [['product_id', 'in', productIds]], {
        fields: ['name', 'product_id', 'price', 'delay', 'sequence'],
        order: 'sequence, id',
      })
    : [];
  const out = new Map<number, Vendor>();
  for (const r of rows) {
    const product = idOf(r.product_id);
    const partnerId = idOf(r.name);
    if (product === undefined || partnerId === undefined || out.has(product)) continue;
    out.set(product, { partnerId, price: Number(r.price ?? 0), delay: Number(r.delay ?? 0) });
  }
  return out;
}

export interface DraftResult {
  /** The sale order's name: every purchase order's `origin`. */
  origin: string;
  /** vendor id → its purchase order (made now or found from an earlier run). */
  orders: { partnerId: number; purchaseOrderId: number; created: boolean }[];
  /** Sale lines whose product names no vendor: ordered by hand. */
  unsourced: number[];
}

/** One draft purchase order per vendor of the sale order's windows; those that exist are kept. */
export async function draftPurchaseOrders(erp: Erp, saleOrderId: number, now: Date): Promise<DraftResult> {
  const [so] = await erp.read('sale.order', [saleOrderId], ['name']);
  const origin = String(so?.name ?? '');
  const lines = await erp.searchRead(
    'sale.order.line',
    [
      ['order_id', '=', saleOrderId],
      // The deposit's down-payment line is money, not a window.
      ['is_downpayment', '=', false],
    ],
    { fields: ['name', 'product_id', 'product_uom_qty'], order: 'sequence, id' },
  );
  const vendors = await vendorsOf(
    erp,
    lines.map((l) => idOf(l.product_id)).filter((x): x is number => x !== undefined),
  );
  const byVendor = new Map<number, { line: ErpRecord; v: Vendor }[]>();
  const unsourced: number[] = [];
  for (const line of lines) {
    const v = vendors.get(idOf(line.product_id) ?? -1);
    if (!v) {
      unsourced.push(line.id);
      continue;
    }
    byVendor.set(v.partnerId, [...(byVendor.get(v.partnerId) ?? []), { line, v }]);
  }
  const orders: DraftResult['orders'] = [];
  for (const [partnerId, items] of byVendor) {
    const [found] = await erp.search(
      'purchase.order',
      [
        ['origin', '=', origin],
        ['partner_id', '=', partnerId],
        ['state', '!=', 'cancel'],
      ],
      { limit: 1, order: 'id' },
    );
    if (found) {
      orders.push({ partnerId, purchaseOrderId: found, created: false });
      continue;
    }
    const id = await createPurchaseOrder(
      erp,
      partnerId,
      origin,
      items.map(({ line, v }) => ({
        name: String(line.name),
        productId: idOf(line.product_id),
        qty: Number(line.product_uom_qty ?? 1),
        price: v.price,
        delay: v.delay,
        saleLineId: line.id,
      })),
      now,
    );
    orders.push({ partnerId, purchaseOrderId: id, created: true });
  }
  return { origin, orders, unsourced };
}

export interface PurchaseLine {
  name: string;
  productId: number | undefined;
  qty: number;
  price: number;
  /** The vendor's lead time in days: the line's expected arrival. */
  delay: number;
  saleLineId?: number;
}

/** A draft `purchase.order` to the vendor; expected when its slowest line's lead time has passed. */
export async function createPurchaseOrder(
  erp: Erp,
  partnerId: number,
  origin: string,
  lines: PurchaseLine[],
  now: Date,
): Promise<number> {
  const planned = (delay: number) => erpDateTime(new Date(now.getTime() + delay * DAY_MS));
  return erp.create('purchase.order', {
    partner_id: partnerId,
    origin,
    date_planned: planned(Math.max(...lines.map((l) => l.delay))),
    order_line: lines.map((l) => [
      0,
      0,
      {
        name: l.name,
        product_id: l.productId ?? false,
        product_qty: l.qty,
        price_unit: l.price,
        date_planned: planned(l.delay),
        ...(l.saleLineId ? { sale_line_id: l.saleLineId } : {}),
      },
    ]),
  });
}
