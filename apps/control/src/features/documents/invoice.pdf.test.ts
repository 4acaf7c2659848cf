/**
 * The invoice and purchase-order PDFs read as their readers read them (pdftotext): every line, the
 * taxes, the total and the amount due in the tenant's currency; a 60-line invoice runs onto more pages,
 * each with the table's header and its page number; page 1 rendered (pdftoppm) to be looked at.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import type { InvoiceView, PurchaseOrderView } from './documents-erp.js';
import { renderInvoicePdf } from './invoice.pdf.js';
import type { DocumentBrand } from './pdf-layout.js';
import { firstPagePng, pdfPages } from './pdf-reader.test-support.js';
import { renderPurchaseOrderPdf } from './purchase-order.pdf.js';

const SHOTS = join(process.cwd(), 'test-results', 'documents');
const brand: DocumentBrand = {
  name: 'Acme Blinds',
  logo: null,
  primary: '#0b6e4f',
  contact: ['1420 Larimer St, Denver CO', '303-555-0100'],
  currency: 'USD',
  timeZone: 'America/Denver',
};
const customer = { name: 'Dana Whitfield', lines: ['12 Elm Street', 'Denver 80202', 'dana@example.com'] };

function invoiceOf(n: number, state: InvoiceView['state'] = 'posted'): InvoiceView {
  const lines = Array.from({ length: n }, (_, i) => ({
    description: `Roller shade – Window ${i + 1}`,
    quantity: 1 + (i % 2),
    unit_price: 100 + i,
    discount: i === 0 ? 10 : 0,
    taxes: 'Sales tax 8%',
    subtotal: (100 + i) * (1 + (i % 2)) * (i === 0 ? 0.9 : 1),
  }));
  const untaxed = Math.round(lines.reduce((s, l) => s + l.subtotal, 0) * 100) / 100;
  const tax = Math.round(untaxed * 8) / 100;
  return {
    ...{ id: 7, number: 'INV/2026/00007', state, refund: false, origin: 'S00012', customer, lines },
    ...{ invoice_date: '2026-11-20', due_date: '2026-12-20' },
    ...{ amount_untaxed: untaxed, amount_tax: tax, amount_total: untaxed + tax, amount_due: 50 },
  };
}

describe('the invoice PDF', () => {
  it('names the invoice, the customer, every line with its taxes, the total and the amount due', async () => {
    const text = pdfPages(await renderInvoicePdf(brand, invoiceOf(3), '2026-11-21T12:00:00Z')).join('\n');
    expect(text).toContain('Invoice INV/2026/00007');
    expect(text).toContain('Invoice date: Nov 20, 2026');
    expect(text).toContain('Due date: Dec 20, 2026');
    expect(text).toContain('Order: S00012');
    expect(text).toContain('Dana Whitfield');
    expect(text).toMatch(/1\s+Roller shade – Window 1\s+1\s+\$100\.00\s+10%\s+Sales tax 8%\s+\$90\.00/);
    expect(text).toMatch(/2\s+Roller shade – Window 2\s+2\s+\$101\.00\s+Sales tax 8%\s+\$202\.00/);
    expect(text).toMatch(/3\s+Roller shade – Window 3\s+1\s+\$102\.00/);
    expect(text).toMatch(/Untaxed amount\s+\$394\.00/);
    expect(text).toMatch(/Tax\s+\$31\.52/);
    expect(text).toMatch(/Total\s+\$425\.52/);
    expect(text).toMatch(/Amount due as of Nov 21, 2026\s+\$50\.00/);
  });

  it('calls a draft a draft, with no number', async () => {
    const text = pdfPages(
      await renderInvoicePdf(brand, { ...invoiceOf(1, 'draft'), number: 'Draft' }, '2026-11-21'),
    ).join('\n');
    expect(text).toContain('Draft invoice');
    expect(text).not.toContain('INV/2026');
  });

  it('runs a 60-line invoice onto more pages, each with the table header and its page number', async () => {
    const pdf = await renderInvoicePdf(brand, invoiceOf(60), '2026-11-21T12:00:00Z');
    const pages = pdfPages(pdf);
    expect(pages.length).toBeGreaterThan(1);
    const tablePages = pages.filter((p) => /Window \d+/.test(p));
    expect(tablePages.length).toBeGreaterThan(1);
    for (const p of tablePages) expect(p).toMatch(/Description\s+Qty\s+Unit price\s+Disc\.\s+Taxes\s+Amount/);
    pages.forEach((p, i) => expect(p).toContain(`Page ${i + 1} of ${pages.length}`));
    const text = pages.join('\n');
    for (let i = 1; i <= 60; i++) expect(text).toMatch(new RegExp(`Window ${i}\\b`));
    expect(pages.at(-1)).toMatch(/Total\s+\$/);
    mkdirSync(SHOTS, { recursive: true });
    writeFileSync(join(SHOTS, 'invoice-60-lines-page1.png'), firstPagePng(pdf));
  });
});

describe('the purchase-order PDF', () => {
  const po = (n: number, state = 'purchase'): PurchaseOrderView => ({
    ...{ id: 3, number: 'P00003', state, order_date: '2026-11-20 15:00:00', expected: '2026-12-01 00:00:00' },
    ...{ supplier_ref: 'Q-881', supplier: { name: 'Hunter Fabrics Ltd', lines: ['9 Mill Road'] } },
    lines: Array.from({ length: n }, (_, i) => ({
      description: `Linen fabric roll ${i + 1}`,
      quantity: 2,
      unit_cost: 40.5,
      subtotal: 81,
    })),
    ...{ amount_untaxed: 81 * n, amount_tax: 0, amount_total: 81 * n },
  });

  it('names the supplier, every line with its quantity and cost, and the total', async () => {
    const text = pdfPages(await renderPurchaseOrderPdf(brand, po(2))).join('\n');
    expect(text).toContain('Purchase order P00003');
    expect(text).toContain('Hunter Fabrics Ltd');
    expect(text).toContain('Your reference: Q-881');
    expect(text).toMatch(/1\s+Linen fabric roll 1\s+2\s+\$40\.50\s+\$81\.00/);
    expect(text).toMatch(/2\s+Linen fabric roll 2\s+2\s+\$40\.50\s+\$81\.00/);
    expect(text).toMatch(/Total\s+\$162\.00/);
    expect(text).toContain('Deliver to');
    expect(pdfPages(await renderPurchaseOrderPdf(brand, po(1, 'draft'))).join('\n')).toContain(
      'Request for quotation P00003',
    );
  });

  it('runs a 60-line order onto more pages with the header repeated', async () => {
    const pdf = await renderPurchaseOrderPdf(brand, po(60));
    const pages = pdfPages(pdf);
    const tablePages = pages.filter((p) => /Linen fabric roll/.test(p));
    expect(tablePages.length).toBeGreaterThan(1);
    for (const p of tablePages) expect(p).toMatch(/Description\s+Qty\s+Unit cost\s+Amount/);
    expect(pages.join('\n')).toMatch(/Linen fabric roll 60\b/);
    writeFileSync(join(SHOTS, 'purchase-order-60-lines-page1.png'), firstPagePng(pdf));
  });
});
