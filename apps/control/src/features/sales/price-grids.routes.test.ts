/** /sales/price-grids: the default set on first use, the grid rules, a tenant's own grids kept from others. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type CrmSalesKit, startCrmSalesKit } from '../../testing/crm-sales-kit.js';

let k: CrmSalesKit;
beforeAll(async () => {
  k = await startCrmSalesKit();
}, 120_000);
afterAll(async () => k?.close());

describe('price grids', () => {
  it('gives a fresh tenant the default grids so it can quote at once', async () => {
    const r = await k.call('GET', '/sales/price-grids', k.a.office);
    expect(r.status).toBe(200);
    expect(r.body.items.map((g: { product_code: string }) => g.product_code)).toEqual([
      'cellular-shade',
      'roller-shade',
      'shutter',
      'wood-blind',
    ]);
  });

  it('refuses a grid whose widths are not ascending, naming the band', async () => {
    const r = await k.call('PUT', '/sales/price-grids/vertical-blind', k.a.office, {
      name: 'Vertical Blind',
      bands: { widths_in: [24, 48, 36], drops_in: [48], prices: [[100, 120, 140]] },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors).toContainEqual(expect.objectContaining({ field: 'bands.widths_in.2', rule: 'ascending' }));
    expect((await k.call('GET', '/sales/price-grids/vertical-blind', k.a.office)).status).toBe(404);
  });

  it("saves a tenant's own grid, audited, and hides it from another tenant", async () => {
    const grid = {
      name: 'Vertical Blind',
      bands: {
        widths_in: [24, 48, 72],
        drops_in: [48, 96],
        prices: [
          [100, 120, 140],
          [130, 150, 170.5],
        ],
      },
      options: [{ code: 'wand', name: 'Wand control', price: 15 }],
      mount_allowance_in: { inside: 0, outside: 2.5 },
    };
    const r = await k.call('PUT', '/sales/price-grids/vertical-blind', k.a.office, grid);
    expect(r.status).toBe(200);
    expect(r.body.bands.prices[1][2]).toBe(170.5);
    expect((await k.call('GET', '/sales/price-grids/vertical-blind', k.a.office)).body.name).toBe('Vertical Blind');
    expect((await k.call('GET', '/sales/price-grids/vertical-blind', k.b.office)).status).toBe(404);
    const audit = await k.kit.t.db.query(
      `SELECT 1 FROM audit_log WHERE tenant_id = $1 AND action = 'sales.price_grid.put'`,
      [k.a.id],
    );
    expect(audit.rowCount).toBe(1);
  });

  it('keeps technicians out of price grids and quotes', async () => {
    expect((await k.call('GET', '/sales/price-grids', k.a.technician)).status).toBe(403);
    expect((await k.call('POST', '/sales/quotes', k.a.technician, { lines: [] })).body.code).toBe('ROLE_FORBIDDEN');
    expect((await k.call('GET', '/sales/orders', k.a.technician)).status).toBe(403);
  });
});
