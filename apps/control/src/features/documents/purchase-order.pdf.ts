/**
 * A supplier purchase order as a branded PDF, framed like the quote: the order's number and dates,
 * the supplier, one row per line (description, quantity, unit cost, amount), then untaxed amount,
 * tax and total. Long orders run onto more pages with the table's header repeated.
 */
import { formatMoney, toMinor } from '@platform/contracts/money.js';

import type { PurchaseOrderView } from './documents-erp.js';
import { day, qty } from './invoice.pdf.js';
import { type DocumentBrand, footers, heading, letterhead, lines, newPdf, table, totals } from './pdf-layout.js';

const COLUMNS = [
  { label: '#', share: 0.06 },
  { label: 'Description', share: 0.52 },
  { label: 'Qty', share: 0.1, align: 'right' as const },
  { label: 'Unit cost', share: 0.16, align: 'right' as const },
  { label: 'Amount', share: 0.16, align: 'right' as const },
];

/** An RFQ not confirmed yet reads as a request for quotation, as the supplier should take it. */
const titleOf = (po: PurchaseOrderView) =>
  ['draft', 'sent', 'to approve'].includes(po.state)
    ? `Request for quotation ${po.number}`
    : `Purchase order ${po.number}`;

export async function renderPurchaseOrderPdf(brand: DocumentBrand, po: PurchaseOrderView): Promise<Buffer> {
  const money = (x: number) => formatMoney(toMinor(x, brand.currency), brand.currency);
  const title = titleOf(po);
  const { doc, done } = newPdf(title);
  letterhead(doc, brand, title, [
    `Order date: ${day(po.order_date)}`,
    ...(po.expected ? [`Expected: ${day(po.expected)}`] : []),
    ...(po.supplier_ref ? [`Your reference: ${po.supplier_ref}`] : []),
    ...(po.state === 'cancel' ? ['Cancelled'] : []),
  ]);
  heading(doc, 'Supplier');
  lines(doc, [po.supplier.name, ...po.supplier.lines].filter(Boolean));
  heading(doc, `Lines (${po.lines.length})`);
  table(
    doc,
    brand,
    COLUMNS,
    po.lines.map((l, i) => [String(i + 1), l.description, qty(l.quantity), money(l.unit_cost), money(l.subtotal)]),
  );
  totals(doc, [
    { label: 'Untaxed amount', value: money(po.amount_untaxed) },
    { label: 'Tax', value: money(po.amount_tax) },
    { label: 'Total', value: money(po.amount_total), bold: true },
  ]);
  heading(doc, 'Deliver to');
  lines(doc, [brand.name, ...brand.contact]);
  footers(doc, brand);
  doc.end();
  return done;
}
