import type { AccountingTaxRate } from '@platform/providers';
import { describe, expect, it } from 'vitest';

import { autoMapTax, autoMapTaxes } from './accounting-tax-automap.js';

const rate = (taxType: string, effectiveRate: number, over: Partial<AccountingTaxRate> = {}): AccountingTaxRate => ({
  taxType,
  name: taxType,
  effectiveRate,
  displayRate: effectiveRate,
  status: 'ACTIVE',
  canApplyToRevenue: true,
  ...over,
});
const tax = (id: number, amount: number) => ({ id, name: `Tax ${amount}%`, amount });

describe('automatic tax mapping by rate', () => {
  const rates = [
    rate('NONE', 0),
    rate('TAX825', 8.25),
    rate('OUTPUT', 10),
    rate('GSTIMPORT', 10),
    rate('OLD7', 7, { status: 'ARCHIVED' }),
    rate('INPUT7', 7, { canApplyToRevenue: false }),
  ];

  it('maps a tax whose percentage equals exactly one active rate', () => {
    expect(autoMapTax(tax(1, 8.25), rates)).toEqual({ kind: 'matched', taxType: 'TAX825' });
  });

  it('leaves a tax matching two active rates for the owner to choose, naming both', () => {
    expect(autoMapTax(tax(2, 10), rates)).toEqual({ kind: 'ambiguous', candidates: ['OUTPUT', 'GSTIMPORT'] });
  });

  it('does not map a tax no rate matches, nor to an archived or purchase-only rate of its percentage', () => {
    expect(autoMapTax(tax(3, 5), rates)).toEqual({ kind: 'unmatched' });
    expect(autoMapTax(tax(4, 7), rates)).toEqual({ kind: 'unmatched' });
  });

  it('compares percentages to 4 decimals, not binary fractions', () => {
    expect(autoMapTax(tax(5, 0.1 + 8.15), rates)).toEqual({ kind: 'matched', taxType: 'TAX825' });
  });

  it('adds mappings only for taxes not mapped yet, never replacing the owner’s choice', () => {
    const taxes = [tax(1, 8.25), tax(2, 10), tax(6, 0), tax(7, 8.25)];
    expect(autoMapTaxes(taxes, rates, { '7': 'OUTPUT' })).toEqual({ '1': 'TAX825', '6': 'NONE' });
  });
});
