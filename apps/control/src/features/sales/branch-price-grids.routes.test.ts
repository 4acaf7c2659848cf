/**
 * Branch price grids: a branch's own grid prices the quotes of the leads it serves (by the lead's ZIP),
 * every other product, branch and lead-less quote keeps the tenant's grid; removing it goes back.
 * Another tenant's branch is 404, a technician 403, and a plan without multi_location cannot change them.
 */
import { featureMissing, PLANS } from '@platform/tenancy';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { type CrmSalesKit, startCrmSalesKit } from '../../testing/crm-sales-kit.js';
import { threeWindows } from '../../testing/quote-fixtures.js';

let k: CrmSalesKit;
let boulder: string;
let grid: {
  name: string;
  bands: { widths_in: number[]; drops_in: number[]; prices: number[][] };
  options: object[];
  mount_allowance_in: object;
};
const url = (branch: string, code = 'roller-shade') => `/sales/branches/${branch}/price-grids/${code}`;

beforeAll(async () => {
  k = await startCrmSalesKit();
  const add = async (name: string, zip_codes: string[]) =>
    (await k.call('POST', `/api/tenants/${k.a.id}/branches`, k.a.owner, { name, zip_codes })).body.id as string;
  await add('Denver', ['80202']);
  boulder = await add('Boulder', ['80301']);
  const g = (await k.call('GET', '/sales/price-grids/roller-shade', k.a.office)).body;
  // Boulder's roller shades cost twice as much, motor included.
  grid = {
    name: `${g.name} (Boulder)`,
    bands: { ...g.bands, prices: g.bands.prices.map((row: number[]) => row.map((p) => p * 2)) },
    options: g.options.map((o: { price: number }) => ({ ...o, price: o.price * 2 })),
    mount_allowance_in: g.mount_allowance_in,
  };
}, 120_000);
afterAll(async () => k?.close());

/** The roller-shade lines' subtotals of a quote made for this lead or customer ZIP. */
async function rollerPrices(over: { lead_id?: number; zip?: string }) {
  const body = {
    ...threeWindows,
    customer: { ...threeWindows.customer, zip: over.zip ?? threeWindows.customer.zip },
    ...(over.lead_id ? { lead_id: over.lead_id } : {}),
  };
  const q = await k.call('POST', '/sales/quotes', k.a.office, body);
  expect(q.status, JSON.stringify(q.body)).toBe(201);
  return (q.body.lines as { product_code: string; subtotal: number }[]).map((l) => l.subtotal);
}

describe('branch price grids', () => {
  it("prices a Boulder lead's quote from Boulder's grid, other products and Denver from the tenant's", async () => {
    const tenant = await rollerPrices({});
    const put = await k.call('PUT', url(boulder), k.a.office, grid);
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const lead = await k.a.erp.erp.create('crm.lead', { name: 'Shades – Bo', zip: '80301' });
    const branch = await rollerPrices({ lead_id: lead });
    expect(branch[0]).toBeCloseTo(tenant[0]! * 2, 2);
    expect(branch[1]).toBeCloseTo(tenant[1]! * 2, 2);
    expect(branch[2]).toBe(tenant[2]); // the shutter: Boulder has no grid of its own
    // Without a lead the tenant's grids price it, as the quote builder shows them.
    expect(await rollerPrices({ zip: '80301' })).toEqual(tenant);
    // What the builder prices a Boulder lead's windows from: Boulder's roller shade, the tenant's shutter.
    const forZip = await k.call('GET', '/sales/price-grids?zip=80301', k.a.office);
    const byCode = Object.fromEntries(forZip.body.items.map((g: { product_code: string }) => [g.product_code, g]));
    expect(byCode['roller-shade'].name).toBe(grid.name);
    expect(byCode.shutter.name).not.toContain('Boulder');
    const listed = await k.call('GET', `/sales/branches/${boulder}/price-grids`, k.a.office);
    expect(listed.body.items.map((g: { product_code: string }) => g.product_code)).toEqual(['roller-shade']);

    expect((await k.call('DELETE', url(boulder), k.a.office)).status).toBe(204);
    expect(await rollerPrices({ lead_id: lead })).toEqual(tenant);
    expect((await k.call('DELETE', url(boulder), k.a.office)).status).toBe(404);
  });

  it("refuses another tenant's branch, a technician, a bad grid, and a plan without multi_location", async () => {
    expect((await k.call('PUT', url(boulder), k.b.office, grid)).status).toBe(404);
    expect((await k.call('GET', `/sales/branches/${boulder}/price-grids`, k.b.office)).status).toBe(404);
    expect((await k.call('PUT', url(boulder), k.a.technician, grid)).status).toBe(403);
    const bad = await k.call('PUT', url(boulder), k.a.office, { ...grid, name: '' });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('name');
    const spy = vi.spyOn(k.kit.deps.plans, 'assertFeature').mockImplementation(async (_q, _t, feature) => {
      if (feature === 'multi_location') throw featureMissing(PLANS.starter, feature);
    });
    try {
      const refused = await k.call('PUT', url(boulder), k.a.office, grid);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ code: 'PLAN_FEATURE_MISSING' });
    } finally {
      spy.mockRestore();
    }
  });
});
