/**
 * The office's supplier orders in the tenant's ERP (through the Erp port): listed as open, late (past
 * the date the vendor's lead time gave) or received (every line's `qty_received` reached), confirmed
 * with Odoo's `button_confirm` (the change feed announces "PO Confirmation"), and received line by
 * line into `qty_received` (Odoo's manual method); stocked parts on the order also go into stock
 * through the inventory feature (the caller's `arriving`).
 */
import type { PurchaseOrderFilter, PurchaseOrderView } from '@platform/contracts/purchase-orders.js';
import type { Erp, ErpRecord } from '@platform/erp';
import { AppError } from '@platform/kernel';

import { erpDateTime } from './supply-erp.js';

const m2o = (v: unknown) => (Array.isArray(v) ? { id: Number(v[0]), name: String(v[1]) } : null);
const text = (v: unknown) => (typeof v === 'string' && v ? v : null);
const LINE_FIELDS = ['order_id', 'name', 'product_qty', 'qty_received'];

const statusOf = (po: ErpRecord, lines: PurchaseOrderView['lines'], now: Date): PurchaseOrderFilter => {
  if (lines.length && lines.every((l) => l.qty_received >= l.qty)) return 'received';
  const planned = text(po.date_planned);
  return planned && planned < erpDateTime(now) ? 'late' : 'open';
};

async function views(erp: Erp, pos: ErpRecord[], now: Date): Promise<PurchaseOrderView[]> {
  const lineRows = pos.length
    ? await erp.searchRead('purchase.order.line', [['order_id', 'in', pos.map((p) => p.id)]], {
        fields: LINE_FIELDS,
        order: 'order_id, sequence, id',
      })
    : [];
  return pos.map((po) => {
    const lines = lineRows
      .filter((l) => m2o(l.order_id)?.id === po.id)
      .map((l) => ({
        id: l.id,
        description: String(l.name ?? ''),
        qty: Number(l.product_qty ?? 0),
        qty_received: Number(l.qty_received ?? 0),
      }));
    return {
      id: po.id,
      name: String(po.name),
      state: String(po.state),
      supplier: m2o(po.partner_id),
      origin: text(po.origin),
      date_planned: text(po.date_planned),
      status: statusOf(po, lines, now),
      lines,
    };
  });
}

const PO_FIELDS = ['name', 'state', 'partner_id', 'origin', 'date_planned'];

export async function listPurchaseOrders(erp: Erp, filter: PurchaseOrderFilter, now: Date) {
  const pos = await erp.searchRead('purchase.order', [['state', '!=', 'cancel']], {
    fields: PO_FIELDS,
    order: 'date_planned, id',
    limit: 500,
  });
  return (await views(erp, pos, now)).filter((v) => v.status === filter);
}

export async function purchaseOrder(erp: Erp, id: number, now: Date): Promise<PurchaseOrderView> {
  const [po] = await erp.searchRead('purchase.order', [['id', '=', id]], { fields: PO_FIELDS });
  if (!po) throw new AppError('NOT_FOUND', 'No such purchase order.');
  return (await views(erp, [po], now))[0]!;
}

const conflict = (message: string, state: string) =>
  new AppError('PURCHASE_ORDER_STATE_CONFLICT', message, { details: { state } });

/** Draft or sent → purchase; already confirmed is the same answer (a double click, a retry). */
export async function confirmPurchaseOrder(erp: Erp, id: number, now: Date): Promise<PurchaseOrderView> {
  const po = await purchaseOrder(erp, id, now);
  if (po.state === 'purchase' || po.state === 'done') return po;
  if (po.state !== 'draft' && po.state !== 'sent')
    throw conflict('Only draft purchase orders can be confirmed.', po.state);
  // A racing request (a double click) may confirm it first: the ERP then refuses ours, and the order is confirmed.
  const refused = await erp.call('purchase.order', 'button_confirm', [[id]]).then(
    () => null,
    (e: unknown) => e,
  );
  const after = await purchaseOrder(erp, id, now);
  if (refused && after.state !== 'purchase' && after.state !== 'done') throw refused;
  return after;
}

/**
 * Adds each quantity to its line's received quantity; never past what was ordered. Once the receipt
 * is known to be valid, and before the order records it, `arriving` is told what products came
 * (product → quantity): the stocked parts among them go into stock.
 */
export async function receivePurchaseOrder(
  erp: Erp,
  id: number,
  lines: { line_id: number; qty: number }[],
  now: Date,
  arriving: (po: PurchaseOrderView, products: Map<number, number>) => Promise<void> = async () => undefined,
): Promise<PurchaseOrderView> {
  const po = await purchaseOrder(erp, id, now);
  if (po.state !== 'purchase' && po.state !== 'done')
    throw conflict('Confirm the purchase order before receiving it.', po.state);
  const byId = new Map(po.lines.map((l) => [l.id, l]));
  const next = new Map<number, number>();
  for (const [i, r] of lines.entries()) {
    const line = byId.get(r.line_id);
    const field = `lines.${i}`;
    if (!line)
      throw new AppError('RECEIVE_QTY_INVALID', 'That line is not on this purchase order.', { details: { field } });
    const total = (next.get(r.line_id) ?? line.qty_received) + r.qty;
    if (total > line.qty)
      throw new AppError('RECEIVE_QTY_INVALID', `At most ${line.qty - line.qty_received} left to receive.`, {
        details: { field, ordered: line.qty, received: line.qty_received },
      });
    next.set(r.line_id, total);
  }
  await arriving(po, await productsOf(erp, lines));
  for (const [lineId, qty] of next) await erp.write('purchase.order.line', [lineId], { qty_received: qty });
  return purchaseOrder(erp, id, now);
}

/** The products of these received lines, each with the quantity received of it. */
async function productsOf(erp: Erp, lines: { line_id: number; qty: number }[]): Promise<Map<number, number>> {
  const rows = await erp.read('purchase.order.line', [...new Set(lines.map((l) => l.line_id))], ['product_id']);
  const productOf = new Map(rows.map((r) => [r.id, m2o(r.product_id)?.id]));
  const out = new Map<number, number>();
  for (const l of lines) {
    const product = productOf.get(l.line_id);
    if (product !== undefined && l.qty > 0) out.set(product, (out.get(product) ?? 0) + l.qty);
  }
  return out;
}

/** Whether every window bought for this sale order (by its name) has arrived. */
export async function saleOrderReceived(erp: Erp, origin: string): Promise<boolean> {
  const pos = await erp.search('purchase.order', [
    ['origin', '=', origin],
    ['state', '!=', 'cancel'],
  ]);
  const lines = pos.length
    ? await erp.searchRead('purchase.order.line', [['order_id', 'in', pos]], {
        fields: ['product_qty', 'qty_received'],
      })
    : [];
  return lines.length > 0 && lines.every((l) => Number(l.qty_received) >= Number(l.product_qty));
}

/**
 * Of these sale orders, those whose supplier orders have all arrived (every line's `qty_received`
 * reached): their install jobs are "ready to fit". One page of jobs costs three ERP reads.
 */
export async function receivedSaleOrders(erp: Erp, saleOrderIds: number[]): Promise<Set<number>> {
  if (!saleOrderIds.length) return new Set();
  const sos = await erp.read('sale.order', [...new Set(saleOrderIds)], ['name']);
  const byName = new Map(sos.map((s) => [String(s.name), s.id]));
  const pos = await erp.searchRead(
    'purchase.order',
    [
      ['origin', 'in', [...byName.keys()]],
      ['state', '!=', 'cancel'],
    ],
    { fields: ['origin'] },
  );
  const originOf = new Map(pos.map((p) => [p.id, String(p.origin)]));
  const lines = pos.length
    ? await erp.searchRead('purchase.order.line', [['order_id', 'in', pos.map((p) => p.id)]], {
        fields: ['order_id', 'product_qty', 'qty_received'],
      })
    : [];
  const done = new Map<string, boolean>();
  for (const l of lines) {
    const origin = originOf.get(m2o(l.order_id)?.id ?? -1);
    if (origin === undefined) continue;
    done.set(origin, (done.get(origin) ?? true) && Number(l.qty_received) >= Number(l.product_qty));
  }
  return new Set([...done].filter(([, ok]) => ok).map(([name]) => byName.get(name)!));
}
