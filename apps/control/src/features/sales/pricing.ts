/**
 * Pricing a quote's windows. The rules for one window (1/8-inch sizes, mount allowances, bands,
 * options, cents) live in @platform/contracts/window-pricing.js, shared with the office's quote
 * builder so the browser shows exactly what the server will charge; this module adds what only the
 * server does: refusing a whole quote with VALIDATION_FAILED, and writing the ERP line's description.
 */
import {
  inches,
  type PricedLine,
  type PriceGrid,
  priceLine,
  type WindowLine,
} from '@platform/contracts/window-pricing.js';
import { AppError, type FieldIssue } from '@platform/kernel';

export {
  bandIndex,
  inches,
  isEighth,
  type PricedLine,
  type PriceGrid,
  priceLine,
  type PriceOutcome,
  toCents,
  type WindowLine,
} from '@platform/contracts/window-pricing.js';

/** Prices every window of a quote, or throws VALIDATION_FAILED naming each window's bad field. */
export function priceWindows(grids: Map<string, PriceGrid>, windows: WindowLine[]): PricedLine[] {
  const issues: FieldIssue[] = [];
  const lines: PricedLine[] = [];
  windows.forEach((l, i) => {
    const g = grids.get(l.product_code);
    if (!g) {
      issues.push({
        field: `lines.${i}.product_code`,
        rule: 'unknown_product',
        message: `no price grid for ${l.product_code}`,
      });
      return;
    }
    const r = priceLine(g, l, `lines.${i}`);
    if (r.ok) lines.push(r.line);
    else issues.push(...r.issues);
  });
  if (issues.length)
    throw new AppError('VALIDATION_FAILED', `The quote has ${issues.length} problem(s) with its windows.`, {
      fieldIssues: issues,
    });
  return lines;
}

/** The sale order line's description: the window's details, so the ERP and the installer see them. */
export function lineDescription(l: PricedLine): string {
  const opts = l.option_lines.map((o) => o.name).join(', ');
  return [
    `${l.product_name} – ${l.room}`,
    `${inches(l.width_in)}" W × ${inches(l.drop_in)}" H, ${l.mount} mount, ${l.colour}`,
    ...(opts ? [`Options: ${opts}`] : []),
  ].join('\n');
}
