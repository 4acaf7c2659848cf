/**
 * What the stock browser tests set up through the API of the real platform (a vendor and its
 * stocked bracket part, with ten received) and the Stock screen's parts per window.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

import type { RealPlatform } from '../support/real-platform.js';

/** The call's body, once its status says it was done. */
export async function ok(r: Promise<{ status: number; body: any }>): Promise<any> {
  const x = await r;
  expect(x.status, JSON.stringify(x.body)).toBeLessThan(300);
  return x.body;
}

/** "Steel bracket" from Bracket Co (BC-7, $3.50), reordered under `min` up to 20, ten in stock. */
export async function bracketInStock(p: RealPlatform, min: number): Promise<{ id: number }> {
  const { a } = p;
  const vendor = await ok(p.api(a.owner.token, 'POST', '/supply/suppliers', { name: 'Bracket Co' }));
  const part = await ok(
    p.api(a.office.token, 'POST', '/inventory/parts', {
      ...{ name: 'Steel bracket', supplier_id: vendor.id, supplier_code: 'BC-7', cost_minor: 350 },
      ...{ reorder_min: min, reorder_max: 20 },
    }),
  );
  await ok(p.api(a.office.token, 'POST', `/inventory/parts/${part.id}/receive`, { qty: 10 }));
  return part;
}

/** On the Stock screen: `product` needs `qty` of the part named `part` per window. */
export async function setPartsPerWindow(page: Page, product: string, part: string, qty: number): Promise<void> {
  await page.selectOption('#pp-product', product);
  await page.selectOption('#pp-part', { label: part });
  await page.fill('#pp-qty', String(qty));
  await page.click('#product-parts button[type=submit]');
  await page.waitForSelector('text=Parts per window saved.');
}
