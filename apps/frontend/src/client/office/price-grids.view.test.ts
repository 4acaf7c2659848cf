/** Settings → Price grids: the table's labels and fields, CSV out and back in, and unreadable figures. */
import type { PriceGrid } from '@platform/contracts/window-pricing.js';
import { describe, expect, it } from 'vitest';

import { gridCsv, parseGridCsv } from './price-grid-csv.js';
import { figure, optionCode, priceGridsHtml, unreadable } from './price-grids.view.js';

const roller: PriceGrid = {
  product_code: 'roller-shade',
  name: 'Roller Shade',
  bands: {
    widths_in: [24, 36],
    drops_in: [36, 48],
    prices: [
      [89, 107.5],
      [101, 119],
    ],
  },
  options: [{ code: 'motorisation', name: 'Motorisation', price: 249 }],
  mount_allowance_in: { inside: 0, outside: 3 },
};

describe('the price grid table', () => {
  it('labels each cell by its width and drop and names the API field, in dollars with cents', () => {
    const html = priceGridsHtml([roller], roller);
    expect(html).toContain('data-field="bands.prices.0.1" value="107.50" aria-label="width 36, drop 36"');
    expect(html).toContain('data-field="bands.prices.1.0" value="101.00" aria-label="width 24, drop 48"');
    expect(html).toContain('data-err-for="bands.prices.1.0"');
    expect(html).toContain('data-field="options.0.price" value="249.00"');
    expect(html).toContain('data-field="mount_allowance_in.outside" value="3"');
  });

  it('offers to remove a band only while more than one is left', () => {
    const one = { ...roller, bands: { widths_in: [24], drops_in: [36, 48], prices: [[89], [101]] } };
    const html = priceGridsHtml([one], one);
    expect(html).not.toContain('data-band="drop-width"');
    expect(html).toContain('data-band="drop-drop"');
  });
});

describe('CSV', () => {
  it('writes widths across the first row and drops down the first column', () => {
    expect(gridCsv(roller.bands)).toBe('drop \\ width (in),24,36\r\n36,89.00,107.50\r\n48,101.00,119.00\r\n');
  });

  it('reads back what it wrote', () => {
    expect(parseGridCsv(gridCsv(roller.bands))).toEqual({ ok: true, bands: roller.bands });
  });

  it("reads a spreadsheet's quoted dollar figures, a byte-order mark and blank rows", () => {
    const text = '\uFEFF,24,36.125\n\n36,"$1,089.50",107\n,,\n';
    expect(parseGridCsv(text)).toEqual({
      ok: true,
      bands: { widths_in: [24, 36.125], drops_in: [36], prices: [[1089.5, 107]] },
    });
  });

  it('refuses a file naming the row and column at fault', () => {
    expect(parseGridCsv('x,24,36\n36,89,abc\n')).toEqual({ ok: false, message: 'Row 2, column 3 is not a price.' });
    expect(parseGridCsv('x,24,36\n36,89\n')).toEqual({
      ok: false,
      message: 'Row 2 has 1 price; the widths row has 2.',
    });
    expect(parseGridCsv('x,24,wide\n36,1,2\n')).toEqual({
      ok: false,
      message: 'Row 1, column 3 is not a width in inches.',
    });
    expect(parseGridCsv('x,24\n').ok).toBe(false);
  });
});

describe('reading the form', () => {
  it('takes typed figures with or without a dollar sign, and nothing else', () => {
    expect(figure('$1,089.50')).toBe(1089.5);
    expect(figure('89')).toBe(89);
    expect(figure('')).toBeNaN();
    expect(figure('12abc')).toBeNaN();
  });

  it('names each field that is not a number as the API would', () => {
    const typed = {
      ...roller,
      bands: {
        ...roller.bands,
        prices: [
          [89, NaN],
          [101, 119],
        ],
      },
    };
    expect(unreadable(typed)).toEqual([{ field: 'bands.prices.0.1', message: 'must be a number' }]);
  });

  it('makes a code for a new option from its name', () => {
    expect(optionCode('Blackout lining!')).toBe('blackout-lining');
    expect(optionCode('  ')).toBe('option');
  });
});
