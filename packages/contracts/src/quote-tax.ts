/**
 * Sales taxes of a quote as the ERP computes them (Odoo 15 `account.tax.compute_all` with the
 * company's default `round_per_line`): on each line, each percent tax is its amount percent of the
 * line's subtotal rounded to the cent; the order's tax is the sum of the lines' taxes. The office's
 * quote builder shows the same tax as the ERP order will have, to the cent.
 *
 * Shared by the control plane (`GET /sales/taxes`) and the browser bundle: pure, no imports.
 */

/** A percent sales tax of the tenant's ERP (`account.tax`, `amount_type = 'percent'`). */
export interface SaleTax {
  id: number;
  name: string;
  /** Percent, e.g. 8.25. */
  amount: number;
}

/** The taxes quote lines get: a product's own (by the grid's product code), else the company default. */
export interface QuoteTaxes {
  default: SaleTax[];
  products: Record<string, SaleTax[]>;
}

/** Odoo's float_round to 2 digits (half away from zero, after trimming binary noise). */
export const roundCents = (v: number): number =>
  (Math.sign(v) * Math.round(Number((Math.abs(v) * 100).toPrecision(15)))) / 100;

export const taxesOf = (t: QuoteTaxes, productCode: string): SaleTax[] => t.products[productCode] ?? t.default;

/** The tax of one line: each tax rounded to the cent on its own, then summed. */
export function lineTax(subtotal: number, taxes: SaleTax[]): number {
  return roundCents(taxes.reduce((sum, t) => sum + roundCents((subtotal * t.amount) / 100), 0));
}

/** The order's untaxed amount, tax and total from its lines' subtotals and product codes. */
export function quoteTotals(
  t: QuoteTaxes,
  lines: { product_code: string; subtotal: number }[],
): { untaxed: number; tax: number; total: number } {
  let untaxed = 0;
  let tax = 0;
  for (const l of lines) {
    untaxed = roundCents(untaxed + l.subtotal);
    tax = roundCents(tax + lineTax(l.subtotal, taxesOf(t, l.product_code)));
  }
  return { untaxed, tax, total: roundCents(untaxed + tax) };
}
