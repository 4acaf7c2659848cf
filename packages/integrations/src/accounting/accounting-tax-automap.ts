/**
 * Automatic tax mapping by rate: an ERP sale tax whose percentage equals the rate of exactly one
 * ACTIVE revenue tax rate of the accounting provider gets that rate's tax type. Two or more equal
 * rates (a "GST 10%" and a "GST on imports 10%") or none are not guessed: they need the owner's
 * choice, because the wrong tax type would file the tax in the wrong box of the return.
 */
import type { AccountingTaxRate } from '@platform/providers';

/** An ERP tax as the mapping sees it (`account.tax`, percent taxes only). */
export interface ErpSaleTax {
  id: number;
  name: string;
  /** Percent (8.25 for 8.25 %). */
  amount: number;
}

export type AutoMapOutcome =
  { kind: 'matched'; taxType: string } | { kind: 'ambiguous'; candidates: string[] } | { kind: 'unmatched' };

/** Rates the owner may choose for sales: ACTIVE and usable on revenue. */
export const usableRates = (rates: AccountingTaxRate[]): AccountingTaxRate[] =>
  rates.filter((r) => r.status === 'ACTIVE' && r.canApplyToRevenue);

// Both sides keep 4 decimals of a percent; comparing them scaled to integers avoids 8.25 ≠ 8.2500001.
const basisPoints = (percent: number): number => Math.round(percent * 10_000);

export function autoMapTax(tax: ErpSaleTax, rates: AccountingTaxRate[]): AutoMapOutcome {
  const same = usableRates(rates).filter((r) => basisPoints(r.effectiveRate) === basisPoints(tax.amount));
  const [only] = same;
  if (same.length === 1 && only) return { kind: 'matched', taxType: only.taxType };
  if (same.length > 1) return { kind: 'ambiguous', candidates: same.map((r) => r.taxType) };
  return { kind: 'unmatched' };
}

/** The tax types to add for the taxes not mapped yet (an owner's choice is never replaced). */
export function autoMapTaxes(
  taxes: ErpSaleTax[],
  rates: AccountingTaxRate[],
  mapped: Record<string, string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const t of taxes) {
    if (mapped[String(t.id)] !== undefined) continue;
    const m = autoMapTax(t, rates);
    if (m.kind === 'matched') out[String(t.id)] = m.taxType;
  }
  return out;
}
