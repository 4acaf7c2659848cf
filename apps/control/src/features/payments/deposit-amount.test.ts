import { describe, expect, it } from 'vitest';

import { depositMinor, depositOf, percentRule } from './deposit-amount.js';

describe('deposit amount', () => {
  it('takes a percent of the total, rounded half up to the minor unit', () => {
    expect(depositMinor({ kind: 'percent', percent: 50 }, 100_000)).toBe(50_000);
    expect(depositMinor({ kind: 'percent', percent: 50 }, 12_345)).toBe(6_173); // 61.725 → 61.73
    expect(depositMinor({ kind: 'percent', percent: 33 }, 1_001)).toBe(330); // 330.33 → 330
    expect(depositMinor({ kind: 'percent', percent: 25 }, 2)).toBe(1); // 0.5 → 1
    expect(depositMinor({ kind: 'percent', percent: 100 }, 98_765)).toBe(98_765);
  });

  it('asks a fixed amount, never more than the total', () => {
    expect(depositMinor({ kind: 'fixed', amount_minor: 20_000 }, 150_000)).toBe(20_000);
    expect(depositMinor({ kind: 'fixed', amount_minor: 20_000 }, 15_000)).toBe(15_000);
  });

  it('asks nothing under `none` or on a total of nothing', () => {
    expect(depositMinor({ kind: 'none' }, 150_000)).toBe(0);
    expect(depositMinor({ kind: 'percent', percent: 50 }, 0)).toBe(0);
    expect(depositMinor({ kind: 'fixed', amount_minor: 500 }, 0)).toBe(0);
  });

  it("rounds in the currency's own minor unit: none for JPY, cents for USD", () => {
    expect(depositOf({ kind: 'percent', percent: 50 }, 12_345, 'JPY')).toEqual({ minor: 6_173, amount: 6_173 });
    expect(depositOf({ kind: 'percent', percent: 50 }, 123.45, 'USD')).toEqual({ minor: 6_173, amount: 61.73 });
    expect(depositOf({ kind: 'fixed', amount_minor: 25_050 }, 1_000, 'EUR')).toEqual({ minor: 25_050, amount: 250.5 });
    // 0.1 + 0.2 style totals still land on the exact cent.
    expect(depositOf({ kind: 'percent', percent: 30 }, 0.1 + 0.2, 'CAD')).toEqual({ minor: 9, amount: 0.09 });
  });

  it('turns the platform-wide percent into a rule, 0 meaning no deposit', () => {
    expect(percentRule(50)).toEqual({ kind: 'percent', percent: 50 });
    expect(percentRule(0)).toEqual({ kind: 'none' });
  });
});
