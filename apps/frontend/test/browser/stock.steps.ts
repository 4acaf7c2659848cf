/**
 * What the stock browser tests set up through the API of the real platform: a vendor and its
 * stocked bracket part, with ten received.
 */
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
