/** The pricing rules, as properties over random grids and windows (fast-check). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { DEFAULT_GRIDS } from './default-grids.js';
import { priceGridBody } from './price-grid.schemas.js';
import { inches, type PriceGrid, priceLine, type WindowLine } from './pricing.js';

const eighths = (min: number, max: number) => fc.integer({ min: min * 8, max: max * 8 }).map((n) => n / 8);
const ascending = (n: number) =>
  fc
    .uniqueArray(fc.integer({ min: 8, max: 150 }), { minLength: n, maxLength: n })
    .map((xs) => xs.sort((a, b) => a - b));

const gridArb: fc.Arbitrary<PriceGrid> = fc
  .record({ w: fc.integer({ min: 1, max: 6 }), d: fc.integer({ min: 1, max: 6 }) })
  .chain(({ w, d }) =>
    fc.record({
      product_code: fc.constant('roller-shade'),
      name: fc.constant('Roller Shade'),
      bands: fc.record({
        widths_in: ascending(w),
        drops_in: ascending(d),
        prices: fc.array(
          fc.array(
            fc.integer({ min: 100, max: 500_000 }).map((c) => c / 100),
            { minLength: w, maxLength: w },
          ),
          {
            minLength: d,
            maxLength: d,
          },
        ),
      }),
      options: fc.constant([
        { code: 'motorisation', name: 'Motorisation', price: 249.99 },
        { code: 'lining', name: 'Lining', price: 40.1 },
      ]),
      mount_allowance_in: fc.record({ inside: eighths(0, 1), outside: eighths(0, 6) }),
    }),
  );

const windowArb = (g: PriceGrid): fc.Arbitrary<WindowLine> =>
  fc.record({
    product_code: fc.constant(g.product_code),
    room: fc.constant('Kitchen'),
    width_in: eighths(1, g.bands.widths_in.at(-1)! + 20),
    drop_in: eighths(1, g.bands.drops_in.at(-1)! + 20),
    mount: fc.constantFrom('inside' as const, 'outside' as const),
    colour: fc.constant('White'),
    options: fc.subarray(['motorisation', 'lining']),
  });

describe('pricing a window from its grid', () => {
  it('charges the smallest band that holds the window with its mount allowance, plus the options', () => {
    fc.assert(
      fc.property(
        gridArb.chain((g) => fc.tuple(fc.constant(g), windowArb(g))),
        ([g, w]) => {
          const r = priceLine(g, w, 'lines.0');
          const allowance = g.mount_allowance_in[w.mount];
          const wi = g.bands.widths_in.findIndex((b) => b >= w.width_in + allowance);
          const di = g.bands.drops_in.findIndex((b) => b >= w.drop_in + allowance);
          if (wi < 0 || di < 0) {
            expect(r.ok).toBe(false);
            if (!r.ok) expect(r.issues.every((i) => i.rule === 'max_band')).toBe(true);
            return;
          }
          expect(r.ok).toBe(true);
          if (!r.ok) return;
          // No smaller band would hold it; the chosen one does.
          expect(r.line.band.width_in).toBeGreaterThanOrEqual(w.width_in + allowance);
          if (wi > 0) expect(g.bands.widths_in[wi - 1]).toBeLessThan(w.width_in + allowance);
          const opts = w.options.reduce((s, c) => s + Math.round(g.options.find((o) => o.code === c)!.price * 100), 0);
          expect(Math.round(r.line.unit_price * 100)).toBe(Math.round(g.bands.prices[di]![wi]! * 100) + opts);
        },
      ),
    );
  });

  it('never charges less for a larger window of the same product and mount', () => {
    fc.assert(
      fc.property(
        gridArb.chain((g) => fc.tuple(fc.constant(g), windowArb(g), eighths(0, 10), eighths(0, 10))),
        ([g, w, dw, dd]) => {
          // Dealers' grids grow with size: make this one monotone first.
          const prices = g.bands.prices.map((row, d) => row.map((_, i) => 10 + d * 7 + i * 5));
          const grid = { ...g, bands: { ...g.bands, prices } };
          const small = priceLine(grid, w, 'l');
          const big = priceLine(grid, { ...w, width_in: w.width_in + dw, drop_in: w.drop_in + dd }, 'l');
          if (small.ok && big.ok) expect(big.line.unit_price).toBeGreaterThanOrEqual(small.line.unit_price);
          if (!small.ok) expect(big.ok).toBe(false);
        },
      ),
    );
  });

  it('refuses a measurement finer than 1/8 inch, naming the field', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 8, max: 800 }),
        fc.integer({ min: 1, max: 7 }),
        fc.constantFrom('width_in' as const, 'drop_in' as const),
        (whole8, sixteenth, field) => {
          const bad = whole8 / 8 + (2 * sixteenth - 1) / 16; // an odd number of 1/16ths
          const w: WindowLine = { ...baseWindow, [field]: bad };
          const r = priceLine(DEFAULT_GRIDS[0]!, w, 'lines.3');
          expect(r.ok).toBe(false);
          if (!r.ok)
            expect(r.issues).toContainEqual(
              expect.objectContaining({ field: `lines.3.${field}`, rule: 'eighth_inch' }),
            );
        },
      ),
    );
  });

  it('adds the outside-mount allowance before choosing the band (36" outside lands in the 48" band)', () => {
    const g = DEFAULT_GRIDS[0]!; // roller shade: outside allowance 3"
    const inside = priceLine(g, { ...baseWindow, width_in: 36, drop_in: 36, mount: 'inside' }, 'l');
    const outside = priceLine(g, { ...baseWindow, width_in: 36, drop_in: 36, mount: 'outside' }, 'l');
    expect(inside.ok && inside.line.band).toEqual({ width_in: 36, drop_in: 36 });
    expect(outside.ok && outside.line.band).toEqual({ width_in: 48, drop_in: 48 });
  });

  it('writes sizes in eighths as a dealer does', () => {
    expect([inches(36), inches(36.125), inches(36.5), inches(36.75), inches(0.375)]).toEqual([
      '36',
      '36 1/8',
      '36 1/2',
      '36 3/4',
      '3/8',
    ]);
  });

  it('ships default grids that pass the grid rules', () => {
    for (const g of DEFAULT_GRIDS) expect(priceGridBody.safeParse(g).success, g.product_code).toBe(true);
  });

  it('refuses grids whose bands are not ascending or whose price table does not match the bands', () => {
    const g = DEFAULT_GRIDS[1]!;
    const r = priceGridBody.safeParse({ ...g, bands: { ...g.bands, widths_in: [24, 48, 36, 60, 72, 84, 96] } });
    expect(r.success).toBe(false);
    const shape = priceGridBody.safeParse({ ...g, bands: { ...g.bands, prices: g.bands.prices.slice(1) } });
    expect(shape.success).toBe(false);
    const negative = priceGridBody.safeParse({
      ...g,
      bands: { ...g.bands, prices: g.bands.prices.map((row) => row.map(() => -1)) },
    });
    expect(negative.success).toBe(false);
  });
});

const baseWindow: WindowLine = {
  product_code: 'roller-shade',
  room: 'Kitchen',
  width_in: 30,
  drop_in: 40,
  mount: 'inside',
  colour: 'White',
  options: [],
};
