import { iso31661, iso31662 } from 'iso-3166';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ErpTest, startErpTest } from '../../testing/scratch-erp.js';

let e: ErpTest;
beforeAll(async () => {
  e = await startErpTest('crmhooks');
}, 120_000);
afterAll(async () => e?.close());

describe('countries and states from the ISO 3166 data package', () => {
  it('has every ISO 3166-1 country and ISO 3166-2 subdivision, with Odoo codes and external ids', async () => {
    expect(await e.x('res.country', 'search_count', [[]])).toBe(iso31661.length);
    expect(await e.x('res.country.state', 'search_count', [[]])).toBe(iso31662.length);
    const us = await e.ref('base.us');
    const [row] = await e.x('res.country', 'read', [[us], ['code', 'name']]);
    expect(row).toEqual({ id: us, code: 'US', name: iso31661.find((c) => c.alpha2 === 'US')!.name });
    const tx = await e.x(
      'res.country.state',
      'search_read',
      [
        [
          ['country_id.code', '=', 'US'],
          ['code', '=', 'TX'],
        ],
      ],
      { fields: ['name', 'country_id'] },
    );
    expect(tx).toEqual([{ id: expect.any(Number), name: 'Texas', country_id: [us, row.name] }]);
  });

  it('reads a partner address with state_id and country_id, the state bringing its country', async () => {
    const [tx] = await e.x('res.country.state', 'search', [
      [
        ['country_id.code', '=', 'US'],
        ['code', '=', 'TX'],
      ],
    ]);
    const id = await e.x('res.partner', 'create', [
      { name: 'Addr', street: '1 Main St', street2: 'Suite 2', city: 'Austin', zip: '78701', state_id: tx },
    ]);
    const [p] = await e.x('res.partner', 'read', [
      [id],
      ['street', 'street2', 'city', 'zip', 'state_id', 'country_id', 'customer_rank'],
    ]);
    expect(p).toMatchObject({
      street: '1 Main St',
      street2: 'Suite 2',
      city: 'Austin',
      zip: '78701',
      state_id: [tx, 'Texas (US)'],
      customer_rank: 0,
    });
    expect(p.country_id[0]).toBe(await e.ref('base.us'));
  });

  it('refuses to delete a country a partner uses', async () => {
    const fr = await e.ref('base.fr');
    await e.x('res.partner', 'create', [{ name: 'Paris', country_id: fr }]);
    await expect(e.x('res.country', 'unlink', [[fr]])).rejects.toMatchObject({
      odooName: 'odoo.exceptions.ValidationError',
    });
  });

  it('a second start adds nothing twice', async () => {
    const { ensureBaseData } = await import('../../seed/base-data.js');
    await ensureBaseData(e.erp.env(e.t.db, 'erp_crmhooks', 1, {}));
    expect(await e.x('res.country', 'search_count', [[]])).toBe(iso31661.length);
    expect(await e.x('res.country.state', 'search_count', [[]])).toBe(iso31662.length);
  });
});

describe('customer rank', () => {
  it('is 1 for a partner created in customer mode, as account does', async () => {
    const c = await e.x('res.partner', 'create', [{ name: 'Cust' }], {
      context: { res_partner_search_mode: 'customer' },
    });
    const v = await e.x('res.partner', 'create', [{ name: 'Vend' }], {
      context: { res_partner_search_mode: 'supplier' },
    });
    const rows = await e.x('res.partner', 'read', [
      [c, v],
      ['customer_rank', 'supplier_rank'],
    ]);
    expect(rows).toEqual([
      { id: c, customer_rank: 1, supplier_rank: 0 },
      { id: v, customer_rank: 0, supplier_rank: 1 },
    ]);
    expect(
      await e.x('res.partner', 'search', [
        [
          ['customer_rank', '>', 0],
          ['id', 'in', [c, v]],
        ],
      ]),
    ).toEqual([c]);
  });
});

describe('lead pipeline', () => {
  it('puts a new lead in the Sales team and the New stage', async () => {
    const id = await e.x('crm.lead', 'create', [{ name: 'Pipeline lead' }]);
    const [l] = await e.x('crm.lead', 'read', [[id], ['stage_id', 'team_id', 'probability', 'date_closed']]);
    expect(l).toMatchObject({
      stage_id: [await e.ref('crm.stage_lead1'), 'New'],
      team_id: [await e.ref('sales_team.team_sales_department'), 'Sales'],
    });
    expect(l.date_closed).toBe(false);
  });

  it('takes the first stage of its team when the team has its own stages', async () => {
    const team = await e.x('crm.team', 'create', [{ name: 'Shutters' }]);
    const own = await e.x('crm.stage', 'create', [{ name: 'Measure', sequence: 0, team_id: team }]);
    const id = await e.x('crm.lead', 'create', [{ name: 'Team lead', team_id: team }]);
    const other = await e.x('crm.lead', 'create', [{ name: 'Other lead' }]);
    const rows = await e.x('crm.lead', 'read', [[id, other], ['stage_id']]);
    expect(rows.map((r: { stage_id: [number, string] }) => r.stage_id[0])).toEqual([
      own,
      await e.ref('crm.stage_lead1'),
    ]);
  });

  it('moving to the won stage sets probability 100 and the closing date', async () => {
    const id = await e.x('crm.lead', 'create', [{ name: 'Winner', probability: 20 }]);
    await e.x('crm.lead', 'write', [[id], { stage_id: await e.ref('crm.stage_lead4') }]);
    const [l] = await e.x('crm.lead', 'read', [[id], ['probability', 'date_closed']]);
    expect(l.probability).toBe(100);
    expect(l.date_closed).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });
});
