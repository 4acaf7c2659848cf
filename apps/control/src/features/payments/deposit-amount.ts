/**
 * The deposit a customer pays on accepting a quote (docs/payments.md, "The deposit on acceptance"):
 * the tenant's deposit rule applied to the quote's ERP total, in integer minor units of the tenant's
 * currency, so what the portal shows is exactly what the checkout later asks.
 */
import type { DepositRule } from '@platform/contracts';
import { fromMinor, toMinor } from '@platform/contracts/money.js';

/**
 * The rule on a total already in minor units. A percent is rounded half up to the currency's minor
 * unit, as the ERP rounds a down payment (integer arithmetic, so 0.5 never drifts to 0.4999…); a
 * fixed amount never exceeds the total; `none` (or a total of nothing) asks nothing.
 */
export function depositMinor(rule: DepositRule, totalMinor: number): number {
  if (!Number.isSafeInteger(totalMinor) || totalMinor <= 0) return 0;
  if (rule.kind === 'percent') return Math.floor((totalMinor * rule.percent + 50) / 100);
  if (rule.kind === 'fixed') return Math.min(rule.amount_minor, totalMinor);
  return 0;
}

/** The deposit of an ERP total given in major units (the ERP's decimals), in minor and major units. */
export function depositOf(rule: DepositRule, total: number, currency: string): { minor: number; amount: number } {
  const minor = depositMinor(rule, toMinor(total, currency));
  return { minor, amount: fromMinor(minor, currency) };
}

/** QUOTE_DEPOSIT_PERCENT as a rule: the default of a tenant that never set one (0 asks nothing). */
export const percentRule = (percent: number): DepositRule =>
  percent > 0 ? { kind: 'percent', percent } : { kind: 'none' };
