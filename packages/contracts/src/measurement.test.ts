import { describe, expect, it } from 'vitest';

import { priceMeasurement, productLimits } from './measurement.js';
import type { PriceGrid } from './window-pricing.js';

const grid: PriceGrid = {
  product_code: 'roller',
  name: 'Roller Shade',
  bands: {
    widths_in: [24, 48],
    drops_in: [36, 72],
    prices: [
      [100, 120],
      [130, 150],
    ],
  },
  options: [{ code: 'lining', name: 'Lining', price: 20.5 }],
  mount_allowance_in: { inside: 0, outside: 3 },
};
const window = {
  room: 'Hall',
  product_code: 'roller',
  width_in: 30.125,
  drop_in: 40,
  mount: 'inside' as const,
  colour: '',
  options: ['lining'],
  notes: '',
};

describe('pricing a measured window', () => {
  it('prices it as the quote builder does: the bands that hold it plus the options', () => {
    const r = priceMeasurement(grid, window);
    expect(r.flags).toEqual([]);
    expect(r.line?.unit_price).toBe(170.5);
  });

  it("flags a size over the product's limits, naming them for the window's mount", () => {
    expect(productLimits(grid, 'outside')).toEqual({ width_in: 45, drop_in: 69 });
    const r = priceMeasurement(grid, { ...window, mount: 'outside', width_in: 46, drop_in: 70 });
    expect(r.line).toBeNull();
    expect(r.flags).toEqual([
      {
        field: 'width_in',
        rule: 'product_limits',
        message: '46" is too wide: Roller Shade takes at most 45" wide with an outside mount (45" × 69")',
      },
      {
        field: 'drop_in',
        rule: 'product_limits',
        message: '70" is too long: Roller Shade takes at most 69" drop with an outside mount (45" × 69")',
      },
    ]);
  });

  it('flags a product without a grid and an option the product does not have', () => {
    expect(priceMeasurement(undefined, window).flags[0]).toMatchObject({
      field: 'product_code',
      rule: 'unknown_product',
    });
    expect(priceMeasurement(grid, { ...window, options: ['gold'] }).flags[0]).toMatchObject({
      field: 'options.0',
      rule: 'unknown_option',
    });
  });
});
