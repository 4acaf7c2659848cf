/**
 * A quote as a branded PDF: the customer, every window (room, product, width × drop to the eighth
 * as a tape reads, mount, colour, options, price), subtotal, tax, total, the deposit, and how long
 * the offer stands. Long quotes run onto more pages with the table's header repeated.
 */
import { formatMoney, toMinor } from '@platform/contracts/money.js';
import type { QuoteView } from '@platform/contracts/quote.js';

import {
  type DocumentBrand,
  footers,
  heading,
  letterhead,
  lines,
  newPdf,
  table,
  totals,
  when,
  windowCells,
  windowColumns,
} from './pdf-layout.js';

const COLUMNS = windowColumns({ label: 'Options', share: 0.16 }, { label: 'Price', share: 0.13, align: 'right' });

/** The product's name: the order line's first line reads "Product – Room". */
const productOf = (description: string, room: string | null) => {
  const first = description.split('\n')[0] ?? '';
  return room && first.endsWith(` – ${room}`) ? first.slice(0, -` – ${room}`.length) : first;
};

export async function renderQuotePdf(brand: DocumentBrand, q: QuoteView, validUntil: string): Promise<Buffer> {
  const money = (x: number) => formatMoney(toMinor(x, brand.currency), brand.currency);
  const title = `Quote ${q.name ?? ''}`.trim();
  const { doc, done } = newPdf(title);
  letterhead(doc, brand, title, [
    `Date: ${when(q.created_at, brand.timeZone)}`,
    `Valid until: ${when(validUntil, brand.timeZone)}`,
  ]);
  heading(doc, 'Prepared for');
  const c = q.customer;
  lines(
    doc,
    [
      c?.name ?? q.partner?.name ?? '',
      c?.street ?? '',
      [c?.city, c?.zip].filter(Boolean).join(' '),
      c?.email ?? '',
      c?.phone ?? '',
    ].filter(Boolean),
  );
  heading(doc, `Windows (${q.lines.length})`);
  table(
    doc,
    brand,
    COLUMNS,
    q.lines.map((l, i) => [
      ...windowCells(i + 1, { ...l, product: productOf(l.description, l.room) }, l.mount, l.colour),
      l.options.map((o) => o.name).join(', '),
      money(l.subtotal),
    ]),
  );
  totals(doc, [
    { label: 'Subtotal', value: money(q.amount_untaxed) },
    { label: 'Tax', value: money(q.amount_tax) },
    { label: 'Total', value: money(q.amount_total), bold: true },
    { label: 'Deposit to confirm the order', value: money(q.deposit) },
  ]);
  heading(doc, 'Terms');
  lines(doc, [
    `This quote stands until ${when(validUntil, brand.timeZone)}. Sizes are in inches to the nearest eighth.`,
    'Accept it online with the link you were sent, or call us with any question.',
  ]);
  footers(doc, brand);
  doc.end();
  return done;
}
