/**
 * A customer invoice (or credit note) as a branded PDF, framed like the quote: the invoice number,
 * its dates and origin, the customer, one row per line (description, quantity, unit price, discount,
 * taxes, amount), then untaxed amount, tax, total and the amount still due. Long invoices run onto
 * more pages with the table's header repeated.
 */
import { formatMoney, toMinor } from '@platform/contracts/money.js';

import type { InvoiceView } from './documents-erp.js';
import { type DocumentBrand, footers, heading, letterhead, lines, newPdf, table, totals } from './pdf-layout.js';

const COLUMNS = [
  { label: '#', share: 0.05 },
  { label: 'Description', share: 0.39 },
  { label: 'Qty', share: 0.07, align: 'right' as const },
  { label: 'Unit price', share: 0.13, align: 'right' as const },
  { label: 'Disc.', share: 0.07, align: 'right' as const },
  { label: 'Taxes', share: 0.14 },
  { label: 'Amount', share: 0.15, align: 'right' as const },
];

/** An ERP date (YYYY-MM-DD, a calendar day with no time zone) as a reader writes it. */
export const day = (d: string | null): string =>
  d
    ? new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', dateStyle: 'medium' }).format(
        new Date(`${d.slice(0, 10)}T00:00:00Z`),
      )
    : '—';

/** A quantity as written on paper: 2, 1.5 (no trailing zeros). */
export const qty = (n: number): string => String(Math.round(n * 1000) / 1000);

export async function renderInvoicePdf(brand: DocumentBrand, inv: InvoiceView, drawnAt: string): Promise<Buffer> {
  const money = (x: number) => formatMoney(toMinor(x, brand.currency), brand.currency);
  const kind = inv.refund ? 'Credit note' : 'Invoice';
  const title = inv.state === 'draft' ? `Draft ${kind.toLowerCase()}` : `${kind} ${inv.number}`;
  const { doc, done } = newPdf(title);
  letterhead(doc, brand, title, [
    `Invoice date: ${day(inv.invoice_date)}`,
    ...(inv.refund ? [] : [`Due date: ${day(inv.due_date)}`]),
    ...(inv.origin ? [`Order: ${inv.origin}`] : []),
    ...(inv.state === 'cancel' ? ['Cancelled'] : []),
  ]);
  heading(doc, 'Bill to');
  lines(doc, [inv.customer.name, ...inv.customer.lines].filter(Boolean));
  heading(doc, `Lines (${inv.lines.length})`);
  table(
    doc,
    brand,
    COLUMNS,
    inv.lines.map((l, i) => [
      String(i + 1),
      l.description,
      qty(l.quantity),
      money(l.unit_price),
      l.discount ? `${qty(l.discount)}%` : '',
      l.taxes,
      money(l.subtotal),
    ]),
  );
  totals(doc, [
    { label: 'Untaxed amount', value: money(inv.amount_untaxed) },
    { label: 'Tax', value: money(inv.amount_tax) },
    { label: 'Total', value: money(inv.amount_total), bold: true },
    // A stored document is what the invoice was when first drawn: the amount due says when that was.
    { label: `Amount due as of ${day(drawnAt)}`, value: money(inv.amount_due), bold: true },
  ]);
  if (!inv.refund && inv.amount_due > 0) {
    heading(doc, 'Payment');
    lines(doc, [
      `Please pay by ${day(inv.due_date)}, quoting ${inv.state === 'draft' ? 'the invoice number' : inv.number}.`,
    ]);
  }
  footers(doc, brand);
  doc.end();
  return done;
}
