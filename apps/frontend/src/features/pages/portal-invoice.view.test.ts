/**
 * The invoice's pay page as the server draws it: the work, the deposit deducted, what was paid since
 * and the amount due in the invoice's currency; "Pay" only when a card payment can be made now.
 */
import { describe, expect, it } from 'vitest';

import type { Branding } from '../tenancy/branding.service.js';
import { invoicePayPage, type PortalInvoice } from './portal-invoice.view.js';

const branding: Branding = {
  ...{ name: 'Acme Blinds', logoUrl: null, faviconUrl: null, primary: '#1f4e79', secondary: '#f4f6f8' },
  ...{ phone: null, email: null, address: null, helpdeskEnabled: true, portalEnabled: true, currency: 'USD' },
};
const invoice = (over: Partial<PortalInvoice> = {}): PortalInvoice => ({
  number: 'INV/2026/0007',
  invoice_date: '2026-11-27',
  due_date: '2026-12-27',
  currency: 'USD',
  lines: [
    { description: 'Roller shade', quantity: 1, subtotal_minor: 10_700, down_payment: false },
    { description: 'Down payment', quantity: -1, subtotal_minor: -5_350, down_payment: true },
  ],
  untaxed_minor: 5_350,
  tax_minor: 0,
  total_minor: 5_350,
  deposit_deducted_minor: 5_350,
  residual_minor: 4_350,
  pay_state: 'due',
  ...over,
});

describe('the pay page', () => {
  it('shows the work, the deposit, what was paid since, the amount due and Pay', () => {
    const html = invoicePayPage(branding, invoice(), 'tok', '/s.js');
    expect(html).toContain('$107.00');
    expect(html).toMatch(/id="deposit-deducted">−\$53\.50/);
    expect(html).toMatch(/id="paid-since">−\$10\.00/);
    expect(html).toMatch(/id="amount-due">\$43\.50/);
    expect(html).toContain('id="pay-invoice"');
  });

  it('offers no Pay when paid, while a card payment is being recorded, or when the office arranges it', () => {
    const paid = invoicePayPage(branding, invoice({ residual_minor: 0, pay_state: 'paid' }), 'tok', '/s.js');
    expect(paid).toContain('Paid in full');
    const processing = invoicePayPage(branding, invoice({ pay_state: 'processing' }), 'tok', '/s.js');
    expect(processing).toContain('being recorded');
    const office = invoicePayPage(branding, invoice({ pay_state: 'office' }), 'tok', '/s.js');
    expect(office).toContain('the office will contact you');
    for (const html of [paid, processing, office]) expect(html).not.toContain('id="pay-invoice"');
  });

  it('says the amounts in the invoice currency, escaped', () => {
    const html = invoicePayPage(
      branding,
      invoice({
        currency: 'EUR',
        lines: [{ description: '<b>x</b>', quantity: 1, subtotal_minor: 100, down_payment: false }],
      }),
      'tok',
      '/s.js',
    );
    expect(html).toContain('€43.50');
    expect(html).not.toContain('<b>x</b>');
  });
});
