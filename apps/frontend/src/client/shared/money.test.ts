/** Money in the tenant's currency: Intl's symbol and minor digits per currency, nothing hand-kept. */
import { describe, expect, it } from 'vitest';

import { formatMoney, tenantCurrency, toMinor } from './money.js';

describe('formatMoney', () => {
  it('shows minor units in the currency given, with its own digits', () => {
    expect(formatMoney(123456, 'USD')).toBe('$1,234.56');
    expect(formatMoney(123456, 'EUR')).toBe('€1,234.56');
    expect(formatMoney(1500, 'JPY')).toBe('¥1,500');
    expect(formatMoney(-5, 'GBP')).toBe('-£0.05');
  });

  it("turns the ERP's decimals into minor units without float dust", () => {
    expect(toMinor(142.5, 'USD')).toBe(14250);
    expect(toMinor(1.005, 'USD')).toBe(100);
    expect(toMinor(0.29, 'EUR')).toBe(29);
    expect(toMinor(-2.5, 'USD')).toBe(-250);
    expect(toMinor(1500, 'JPY')).toBe(1500);
  });

  it('is USD where the page does not say (no document here)', () => {
    expect(tenantCurrency()).toBe('USD');
  });
});
