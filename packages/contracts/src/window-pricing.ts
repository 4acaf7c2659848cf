/**
 * How a window prices itself from its product's grid, as dealers do it: measurements in inches to
 * the 1/8, the mount's allowance added (an outside mount covers the frame), the price of the
 * smallest width band and the smallest drop band that hold the window, plus the chosen options.
 * Money is counted in cents so sums never drift.
 *
 * Shared by the control plane (which prices and records quotes) and the office's quote builder in
 * the browser (which shows the same prices while the window is measured), so the rules live once.
 * It must stay pure and browser-safe: no imports.
 */

export interface PriceGrid {
  product_code: string;
  name: string;
  /** `prices[d][w]`: the price for drop band `drops_in[d]` and width band `widths_in[w]`. */
  bands: { widths_in: number[]; drops_in: number[]; prices: number[][] };
  options: { code: string; name: string; price: number }[];
  mount_allowance_in: { inside: number; outside: number };
}

export interface WindowLine {
  product_code: string;
  room: string;
  width_in: number;
  drop_in: number;
  mount: 'inside' | 'outside';
  colour: string;
  options: string[];
}

export interface PricedLine extends WindowLine {
  product_name: string;
  /** The measurement the grid was read at (measured + the mount's allowance). */
  priced_width_in: number;
  priced_drop_in: number;
  band: { width_in: number; drop_in: number };
  base_price: number;
  option_lines: { code: string; name: string; price: number }[];
  unit_price: number;
}

/** A field the rules refuse (the same shape as the kernel's FieldIssue, without importing it). */
export interface PriceIssue {
  field: string;
  rule: string;
  message: string;
}

export type PriceOutcome = { ok: true; line: PricedLine } | { ok: false; issues: PriceIssue[] };

export const isEighth = (x: number): boolean => Number.isFinite(x) && Number.isInteger(x * 8);
export const toCents = (x: number): number => Math.round(x * 100);

/** The smallest band that holds `size`, or undefined when the size is over the largest band. */
export function bandIndex(bands: number[], size: number): number | undefined {
  const i = bands.findIndex((b) => b >= size);
  return i < 0 ? undefined : i;
}

/** Prices one window; `field` is its path in the request (`lines.2`) so issues name the field. */
export function priceLine(grid: PriceGrid, line: WindowLine, field: string): PriceOutcome {
  const issues: PriceIssue[] = [];
  for (const k of ['width_in', 'drop_in'] as const) {
    const v = line[k];
    if (!(v > 0)) issues.push({ field: `${field}.${k}`, rule: 'positive', message: 'must be more than 0 inches' });
    else if (!isEighth(v))
      issues.push({
        field: `${field}.${k}`,
        rule: 'eighth_inch',
        message: 'must be in whole 1/8 inches (e.g. 36.125)',
      });
  }
  if (issues.length) return { ok: false, issues };
  const allowance = grid.mount_allowance_in[line.mount];
  const width = line.width_in + allowance;
  const drop = line.drop_in + allowance;
  const w = bandIndex(grid.bands.widths_in, width);
  const d = bandIndex(grid.bands.drops_in, drop);
  if (w === undefined)
    issues.push({
      field: `${field}.width_in`,
      rule: 'max_band',
      message: `${width} in (with an ${line.mount} mount) is wider than the largest ${grid.name} band, ${grid.bands.widths_in.at(-1)} in`,
    });
  if (d === undefined)
    issues.push({
      field: `${field}.drop_in`,
      rule: 'max_band',
      message: `${drop} in (with an ${line.mount} mount) is longer than the largest ${grid.name} band, ${grid.bands.drops_in.at(-1)} in`,
    });
  const optionLines: PricedLine['option_lines'] = [];
  line.options.forEach((code, i) => {
    const o = grid.options.find((x) => x.code === code);
    if (!o)
      issues.push({
        field: `${field}.options.${i}`,
        rule: 'unknown_option',
        message: `${grid.name} has no option ${code} (it has: ${grid.options.map((x) => x.code).join(', ') || 'none'})`,
      });
    else if (optionLines.some((x) => x.code === code))
      issues.push({ field: `${field}.options.${i}`, rule: 'duplicate', message: `option ${code} is chosen twice` });
    else optionLines.push({ ...o });
  });
  if (issues.length || w === undefined || d === undefined) return { ok: false, issues };
  const base = grid.bands.prices[d]![w]!;
  const cents = toCents(base) + optionLines.reduce((s, o) => s + toCents(o.price), 0);
  return {
    ok: true,
    line: {
      ...line,
      product_name: grid.name,
      priced_width_in: width,
      priced_drop_in: drop,
      band: { width_in: grid.bands.widths_in[w]!, drop_in: grid.bands.drops_in[d]! },
      base_price: base,
      option_lines: optionLines,
      unit_price: cents / 100,
    },
  };
}

/** 36.125 → `36 1/8` (how a window's size is written on the order line). */
export function inches(x: number): string {
  const whole = Math.floor(x);
  let n = Math.round((x - whole) * 8);
  let d = 8;
  if (n === 0) return `${whole}`;
  while (n % 2 === 0) {
    n /= 2;
    d /= 2;
  }
  return whole ? `${whole} ${n}/${d}` : `${n}/${d}`;
}
