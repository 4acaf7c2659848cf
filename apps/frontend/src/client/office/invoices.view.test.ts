/** The office's invoices: the tabs with the current one marked, the list and balances, and one invoice's actions. */
import type { InvoiceSummary } from '@platform/contracts/invoicing.js';
import { describe, expect, it } from 'vitest';

import { invoiceHtml, invoicesHtml } from './invoices.view.js';

const inv = (over: Partial<InvoiceSummary> = {}): InvoiceSummary => ({
  id: 7,
  number: 'INV/2026/0007',
  customer: { id: 3, name: 'Priya Raman' },
  invoice_date: '2026-11-27',
  due_date: '2026-12-27',
  currency: 'USD',
  total_minor: 5_350,
  residual_minor: 4_350,
  state: 'open',
  sale_order: 'S00001',
  ...over,
});

describe('the invoices list', () => {
  it('marks the current tab and lists each invoice with what is left, and the balance per customer', () => {
    const html = invoicesHtml({
      state: 'overdue',
      items: [inv({ state: 'overdue' })],
      balances: [{ customer: { id: 3, name: 'Priya Raman' }, residual_minor: 4_350, currency: 'USD' }],
    });
    expect(html).toContain('href="/office/invoices?state=overdue" aria-current="page"');
    expect(html).toContain('href="/office/invoices/7"');
    expect(html).toContain('$43.50');
    expect(html).toMatch(/id="invoice-balances">.*Priya Raman.*\$43\.50/s);
  });

  it('says when a tab is empty', () => {
    expect(invoicesHtml({ state: 'paid', items: [], balances: [] })).toContain('No paid invoices.');
  });
});

describe('one invoice', () => {
  it('offers a payment form prefilled with what is left, and the pay link, while something is due', () => {
    const html = invoiceHtml({ ...inv(), payments: [] });
    expect(html).toContain('value="43.50"');
    expect(html).toContain('id="invoice-send"');
  });

  it('offers neither once paid in full', () => {
    const html = invoiceHtml({ ...inv({ residual_minor: 0, state: 'paid' }), payments: [] });
    expect(html).toContain('Paid in full.');
    expect(html).not.toContain('id="invoice-payment"');
    expect(html).not.toContain('id="invoice-send"');
  });

  it('offers a refund of a card payment to owners and admins only, never of a cash payment', () => {
    const payments = [
      { id: 11, date: '2026-11-27', amount_minor: 1_000, memo: 'Cash [abc]', card: false, refundable_minor: 0 },
      {
        id: 12,
        date: '2026-11-28',
        amount_minor: 4_350,
        memo: 'Card payment pi_1',
        card: true,
        refundable_minor: 4_350,
      },
    ];
    const owner = invoiceHtml({ ...inv({ residual_minor: 0, state: 'paid' }), payments }, '', '', true);
    expect(owner).toContain('data-payment="12"');
    expect(owner).not.toContain('data-payment="11"');
    expect(owner).toContain('id="refund-12"');
    const office = invoiceHtml({ ...inv({ residual_minor: 0, state: 'paid' }), payments }, '', '', false);
    expect(office).toContain('Card payment pi_1');
    expect(office).not.toContain('refund-form');
  });

  it('suggests what is left of a partly refunded card payment, and offers no refund once it is all refunded', () => {
    const card = { date: '2026-11-28', memo: 'Card payment pi_1', card: true };
    const payments = [
      { ...card, id: 12, amount_minor: 4_350, refundable_minor: 3_350 },
      { ...card, id: 13, amount_minor: 2_000, refundable_minor: 0 },
    ];
    const html = invoiceHtml({ ...inv({ residual_minor: 0, state: 'paid' }), payments }, '', '', true);
    expect(html).toMatch(/id="refund-12"[^>]*value="33.50"/);
    expect(html).toContain('33.50 left to refund');
    expect(html).not.toContain('id="refund-13"');
    expect(html).toContain('Refunded in full.');
  });
});
