/** The website's catalogue from grids and branches: "from" prices in the currency's minor units, unique area slugs, and what the owner chose to show. */
import { describe, expect, it } from 'vitest';

import { buildWebsiteCatalog, shownCatalog, slugify } from './catalog.js';
import { defaultWebsiteContent } from './default-content.js';

const grid = (code: string, prices: number[][]) => ({ product_code: code, name: code, bands: { prices } });
const branch = (id: string, name: string, zips: string[]) => ({
  id,
  name,
  zip_codes: zips,
  phone: null,
  address: null,
});

describe('website catalogue', () => {
  it("gives each product its grid's smallest cell in minor units of the tenant's currency", () => {
    const grids = [
      grid('roller', [
        [120, 99.5],
        [140, 130],
      ]),
      grid('empty', []),
    ];
    expect(buildWebsiteCatalog(grids, [], 'USD').products.map((p) => p.from_minor)).toEqual([9950, null]);
    expect(buildWebsiteCatalog([grid('roller', [[12000]])], [], 'JPY').products[0]!.from_minor).toBe(12000);
  });

  it('slugs branch names, keeping slugs unique', () => {
    expect(slugify('Blinds & Shades – Nörth!')).toBe('blinds-shades-north');
    expect(slugify('!!!')).toBe('area');
    const areas = buildWebsiteCatalog([], [branch('1', 'North', []), branch('2', 'north!', ['1'])], 'USD').areas;
    expect(areas.map((a) => a.slug)).toEqual(['north', 'north-2']);
  });

  it('shows the chosen products and areas, prices only when shown', () => {
    const catalog = buildWebsiteCatalog(
      [grid('a', [[1]]), grid('b', [[2]])],
      [branch('x', 'X', ['80211']), branch('y', 'Y', [])],
      'USD',
    );
    const content = defaultWebsiteContent('Acme');
    const all = shownCatalog(catalog, content);
    expect([all.products.length, all.areas.map((a) => a.slug)]).toEqual([2, ['x']]);
    const chosen = shownCatalog(catalog, { ...content, products_shown: ['b'], show_prices: false, areas_shown: ['y'] });
    expect(chosen.products).toEqual([{ code: 'b', name: 'b', from_minor: null, currency: 'USD' }]);
    expect(chosen.areas.map((a) => a.slug)).toEqual(['y']);
  });
});
