/**
 * The grids a new tenant quotes with on its first day (seeded once, on first use; the tenant then
 * edits them). Prices are typical US retail for made-to-measure coverings, in dollars per window.
 */
import type { PriceGrid } from './pricing.js';

/** Price of a cell: a base, plus so much per width step and per drop step (a realistic grid shape). */
function grid(widths: number[], drops: number[], base: number, perWidth: number, perDrop: number): number[][] {
  return drops.map((_, d) => widths.map((_, w) => base + w * perWidth + d * perDrop));
}

const WIDTHS = [24, 36, 48, 60, 72, 84, 96];
const DROPS = [36, 48, 60, 72, 84, 96];

export const DEFAULT_GRIDS: PriceGrid[] = [
  {
    product_code: 'roller-shade',
    name: 'Roller Shade',
    bands: { widths_in: WIDTHS, drops_in: DROPS, prices: grid(WIDTHS, DROPS, 89, 18, 12) },
    options: [
      { code: 'motorisation', name: 'Motorisation', price: 249 },
      { code: 'blackout-lining', name: 'Blackout lining', price: 45 },
      { code: 'cassette-valance', name: 'Cassette valance', price: 39 },
    ],
    mount_allowance_in: { inside: 0, outside: 3 },
  },
  {
    product_code: 'cellular-shade',
    name: 'Cellular Shade',
    bands: { widths_in: WIDTHS, drops_in: DROPS, prices: grid(WIDTHS, DROPS, 119, 22, 15) },
    options: [
      { code: 'motorisation', name: 'Motorisation', price: 279 },
      { code: 'cordless-lift', name: 'Cordless lift', price: 35 },
      { code: 'top-down-bottom-up', name: 'Top-down / bottom-up', price: 55 },
    ],
    mount_allowance_in: { inside: 0, outside: 2 },
  },
  {
    product_code: 'wood-blind',
    name: 'Wood Blind',
    bands: { widths_in: WIDTHS, drops_in: DROPS, prices: grid(WIDTHS, DROPS, 139, 26, 18) },
    options: [
      { code: 'cloth-tapes', name: 'Cloth tapes', price: 49 },
      { code: 'cordless-lift', name: 'Cordless lift', price: 45 },
    ],
    mount_allowance_in: { inside: 0, outside: 3 },
  },
  {
    product_code: 'shutter',
    name: 'Plantation Shutter',
    bands: {
      widths_in: [24, 36, 48, 60, 72],
      drops_in: [36, 48, 60, 72, 84, 96],
      prices: grid([24, 36, 48, 60, 72], DROPS, 289, 55, 40),
    },
    options: [
      { code: 'hidden-tilt', name: 'Hidden tilt rod', price: 65 },
      { code: 'z-frame', name: 'Z-frame', price: 85 },
    ],
    mount_allowance_in: { inside: 0, outside: 2.5 },
  },
];
