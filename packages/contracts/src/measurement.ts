/**
 * A measure job's windows as the control plane's /jobs/{id}/measurements answers them, and what the
 * field app sends. Shared by the control plane and the field app's bundle: browser-safe, types only
 * (the pricing rules are window-pricing.ts's, the same for both).
 */
import { inches, type PricedLine, type PriceGrid, priceLine } from './window-pricing.js';

/** One window as measured: sizes in inches to the 1/8, options by the grid's codes. */
export interface MeasurementInput {
  room: string;
  product_code: string;
  width_in: number;
  drop_in: number;
  mount: 'inside' | 'outside';
  colour: string;
  options: string[];
  notes: string;
}

/** A measured window the grid cannot price: why, naming the product's limits. */
export interface MeasurementFlag {
  field: string;
  rule: string;
  message: string;
}

export interface Measurement extends MeasurementInput {
  id: string;
  position: number;
  /** The grid's price in major units (the server's own pricing), null when flagged. */
  unit_price: number | null;
  flags: MeasurementFlag[];
  updated_at: string;
}

/** GET /jobs/{id}/measurements: the windows, the grids to price new ones with (kept for offline), the quote. */
export interface MeasurementsAnswer {
  items: Measurement[];
  grids: PriceGrid[];
  quote_id: string | null;
}

/** POST /jobs/{id}/measurements/quote: the one draft quote of the job, and what it holds. */
export interface MeasureQuoteAnswer {
  quote_id: string;
  /** True when an earlier send's draft was brought up to date (false: made now). */
  updated: boolean;
  priced: number;
  flagged: number;
}

/**
 * The largest window a product takes, per mount (its grid's largest bands less the mount's
 * allowance): how a flag names the limits.
 */
export function productLimits(g: PriceGrid, mount: 'inside' | 'outside'): { width_in: number; drop_in: number } {
  const a = g.mount_allowance_in[mount];
  return { width_in: (g.bands.widths_in.at(-1) ?? 0) - a, drop_in: (g.bands.drops_in.at(-1) ?? 0) - a };
}

/**
 * Prices one measured window with the quote builder's rules (window-pricing.ts): the priced line, or
 * the flags of a window the grid cannot price, a size over the product's limits named with them.
 */
export function priceMeasurement(
  grid: PriceGrid | undefined,
  m: MeasurementInput,
): { line: PricedLine; flags: [] } | { line: null; flags: MeasurementFlag[] } {
  if (!grid)
    return {
      line: null,
      flags: [{ field: 'product_code', rule: 'unknown_product', message: `no price grid for ${m.product_code}` }],
    };
  const r = priceLine(grid, { ...m }, 'm');
  if (r.ok) return { line: r.line, flags: [] };
  const limits = productLimits(grid, m.mount);
  const flags = r.issues.map((i) => {
    const field = i.field.replace(/^m\./, '');
    if (i.rule !== 'max_band') return { ...i, field };
    const wide = field === 'width_in';
    const max = wide ? limits.width_in : limits.drop_in;
    return {
      field,
      rule: 'product_limits',
      message: `${inches(wide ? m.width_in : m.drop_in)}" is too ${wide ? 'wide' : 'long'}: ${grid.name} takes at most ${inches(max)}" ${wide ? 'wide' : 'drop'} with an ${m.mount} mount (${inches(limits.width_in)}" × ${inches(limits.drop_in)}")`,
    };
  });
  return { line: null, flags };
}
