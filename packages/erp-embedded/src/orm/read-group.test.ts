import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ErpTest, odoo, startErpTest } from '../testing/scratch-erp.js';

let e: ErpTest;
let s: Record<string, number>;
let u: number;
let tag: string;
beforeAll(async () => {
  e = await startErpTest('readgroup');
  s = {
    New: await e.ref('crm.stage_lead1'),
    Qualified: await e.ref('crm.stage_lead2'),
    Proposition: await e.ref('crm.stage_lead3'),
    Won: await e.ref('crm.stage_lead4'),
  };
  u = 2;
  tag = `rg${Date.now()}`;
  const lead = (name: string, stage: number, revenue: number, deadline: string | false, priority = '0') =>
    e.x('crm.lead', 'create', [
      {
        name: `${tag} ${name}`,
        stage_id: stage,
        expected_revenue: revenue,
        date_deadline: deadline,
        priority,
        type: 'opportunity',
      },
    ]);
  await lead('a', s.New!, 100, '2026-01-10');
  await lead('b', s.New!, 250, '2026-01-31', '2');
  await lead('c', s.Qualified!, 1000, '2026-03-02');
  await lead('d', s.Won!, 40, false, '2');
}, 120_000);
afterAll(async () => e?.close());

const mine = () => [['name', 'like', tag]];
/** A lazy read_group row of one stage (grouped next by priority), as Odoo 15 answers it. */
const stageGroup = (stage: string, count: number, revenue: number | false, domain: unknown[]) => ({
  stage_id: [s[stage], stage],
  stage_id_count: count,
  expected_revenue: revenue,
  __domain: domain,
  __context: { group_by: ['priority'] },
  __fold: false,
});

describe('read_group on crm.lead as Odoo 15 answers it', () => {
  it('groups lazily by stage, with sums, <field>_count, __domain, __context and every stage (group_expand) with __fold', async () => {
    const groups = await e.x('crm.lead', 'read_group', [mine(), ['expected_revenue:sum'], ['stage_id', 'priority']]);
    expect(groups).toEqual([
      stageGroup('New', 2, 350, ['&', ['stage_id', '=', s.New], ['name', 'like', tag]]),
      stageGroup('Qualified', 1, 1000, ['&', ['stage_id', '=', s.Qualified], ['name', 'like', tag]]),
      // An empty stage shown by group_expand: its domain is a plain list, without the '&'.
      stageGroup('Proposition', 0, false, [
        ['stage_id', '=', s.Proposition],
        ['name', 'like', tag],
      ]),
      stageGroup('Won', 1, 40, ['&', ['stage_id', '=', s.Won], ['name', 'like', tag]]),
    ]);
  });

  it('groups eagerly (lazy=false) by several fields with __count and no __context', async () => {
    const groups = await e.x('crm.lead', 'read_group', [mine(), ['expected_revenue'], ['stage_id', 'priority']], {
      lazy: false,
    });
    expect(groups.map((g: Record<string, unknown>) => [g.stage_id, g.priority, g.__count, g.expected_revenue])).toEqual(
      [
        [[s.New, 'New'], '0', 1, 100],
        [[s.New, 'New'], '2', 1, 250],
        [[s.Qualified, 'Qualified'], '0', 1, 1000],
        [[s.Won, 'Won'], '2', 1, 40],
      ],
    );
    expect(groups[0]).not.toHaveProperty('__fold');
    expect(groups[1]).not.toHaveProperty('__context');
    expect(groups[1].__domain).toEqual([
      '&',
      '&',
      ['stage_id', '=', s.New],
      ['priority', '=', '2'],
      ['name', 'like', tag],
    ]);
  });

  it('groups a date by month with Odoo labels and a [start, end) domain; empty dates form a false group', async () => {
    const groups = await e.x('crm.lead', 'read_group', [mine(), [], ['date_deadline:month']]);
    expect(groups.map((g: Record<string, unknown>) => [g['date_deadline:month'], g.date_deadline_count])).toEqual([
      ['January 2026', 2],
      ['March 2026', 1],
      [false, 1],
    ]);
    expect(groups[0].__domain).toEqual([
      '&',
      '&',
      ['date_deadline', '>=', '2026-01-01'],
      ['date_deadline', '<', '2026-02-01'],
      ['name', 'like', tag],
    ]);
    expect(groups[2].__domain).toEqual(['&', ['date_deadline', '=', false], ['name', 'like', tag]]);
    expect(groups.map((g: Record<string, unknown>) => g.__range)).toEqual([
      { date_deadline: { from: '2026-01-01', to: '2026-02-01' } },
      { date_deadline: { from: '2026-03-01', to: '2026-04-01' } },
      { date_deadline: false },
    ]);
    const weeks = await e.x('crm.lead', 'read_group', [mine(), [], ['date_deadline:week']]);
    expect(weeks.map((g: Record<string, unknown>) => g['date_deadline:week'])).toEqual([
      'W2 2026',
      'W5 2026',
      'W10 2026',
      false,
    ]);
    expect(weeks[0].__range).toEqual({ date_deadline: { from: '2026-01-05', to: '2026-01-12' } });
    const byYear = await e.x('crm.lead', 'read_group', [mine(), [], ['date_deadline:year']], { lazy: false });
    expect(byYear.map((g: Record<string, unknown>) => [g['date_deadline:year'], g.__count])).toEqual([
      ['2026', 3],
      [false, 1],
    ]);
  });

  it('honours orderby on an aggregate, limit and offset, and named aggregates (count, max, avg)', async () => {
    const groups = await e.x(
      'crm.lead',
      'read_group',
      [mine(), ['total:sum(expected_revenue)', 'n:count(id)', 'top:max(expected_revenue)'], ['priority']],
      { orderby: 'total desc', limit: 1, offset: 1 },
    );
    expect(groups).toEqual([
      {
        priority: '2',
        priority_count: 2,
        total: 290,
        n: 2,
        top: 250,
        __domain: ['&', ['priority', '=', '2'], ['name', 'like', tag]],
      },
    ]);
  });

  it('answers the raw row without groupby: lowest id, __count and the aggregates', async () => {
    const ids = await e.x('crm.lead', 'search', [mine()], { order: 'id' });
    expect(await e.x('crm.lead', 'read_group', [mine(), ['expected_revenue'], []])).toEqual([
      { id: ids[0], __count: 4, expected_revenue: 1390 },
    ]);
  });

  it('applies an offset only with a limit, as Odoo 15', async () => {
    expect(await e.x('crm.lead', 'read_group', [mine(), [], ['priority']], { offset: 1 })).toHaveLength(2);
    expect(await e.x('crm.lead', 'read_group', [mine(), [], ['priority']], { offset: 1, limit: 5 })).toHaveLength(1);
  });

  it('keeps to the record rules and active_test', async () => {
    const [id] = await e.x('crm.lead', 'search', [[['name', '=', `${tag} a`]]]);
    await e.x('crm.lead', 'write', [[id], { active: false }]);
    const [all] = await e.x('crm.lead', 'read_group', [mine(), [], []]);
    expect(all.__count).toBe(3);
    const [withArchived] = await e.x('crm.lead', 'read_group', [mine(), [], []], { context: { active_test: false } });
    expect(withArchived.__count).toBe(4);
    await e.x('crm.lead', 'write', [[id], { active: true }]);
  });

  it("counts only the caller's companies: another company's user sees none of these leads, and invoices only its own orders", async () => {
    const second = await e.x('res.company', 'create', [{ name: 'Other Blinds Co' }]);
    const uid = await e.x('res.users', 'create', [
      { name: 'olga', login: 'olga', password: 'olga-pw', company_id: second, company_ids: [[6, 0, [second]]] },
    ]);
    const olga = e.as(uid, 'olga-pw');
    const theirs = await olga('crm.lead', 'create', [{ name: `${tag} theirs`, expected_revenue: 7 }]);
    expect(await olga('crm.lead', 'read_group', [mine(), ['expected_revenue'], []])).toEqual([
      { id: theirs, __count: 1, expected_revenue: 7 },
    ]);
    // The admin joined the company it created (as in Odoo); in its main company it sees the four leads.
    const [main] = await e.x('crm.lead', 'read_group', [mine(), ['expected_revenue'], []], {
      context: { allowed_company_ids: [1] },
    });
    expect(main.__count).toBe(4);
    await olga('crm.lead', 'unlink', [[theirs]]);
    const so = await e.x('sale.order', 'create', [
      {
        partner_id: await e.x('res.partner', 'create', [{ name: 'Main buyer' }]),
        order_line: [[0, 0, { name: 'Shade', price_unit: 10 }]],
      },
    ]);
    await e.x('sale.order', 'action_confirm', [[so]]);
    const wiz = await olga('sale.advance.payment.inv', 'create', [{}], {
      context: { active_model: 'sale.order', active_ids: [so] },
    });
    await expect(olga('sale.advance.payment.inv', 'create_invoices', [[wiz]])).rejects.toMatchObject(
      odoo('AccessError'),
    );
  });

  it('refuses bad specs with Odoo errors', async () => {
    await expect(e.x('crm.lead', 'read_group', [[], ['nope'], ['stage_id']])).rejects.toMatchObject({
      odooName: 'builtins.ValueError',
    });
    await expect(e.x('crm.lead', 'read_group', [[], ['expected_revenue:median'], ['stage_id']])).rejects.toMatchObject({
      odooName: 'odoo.exceptions.UserError',
    });
    await expect(e.x('crm.lead', 'read_group', [[], [], ['display_name']])).rejects.toMatchObject(
      odoo('UserError', 'is not a stored field'),
    );
    await expect(e.x('crm.lead', 'read_group', [[], [], ['create_date:fortnight']])).rejects.toMatchObject({
      odooName: 'builtins.ValueError',
    });
    await expect(
      e.x('crm.lead', 'read_group', [[], [], ['stage_id']], { orderby: 'stage_id; drop' }),
    ).rejects.toMatchObject({ odooName: 'builtins.ValueError' });
  });
});

describe('copy, name_create, exists, default_get', () => {
  it('copies a partner as "<name> (copy)" and a sale order with its lines, a new number and draft state', async () => {
    const p = await e.x('res.partner', 'create', [{ name: 'Twin', city: 'Austin', customer_rank: 3 }]);
    const c = await e.x('res.partner', 'copy', [[p]]);
    expect(await e.x('res.partner', 'read', [[c], ['name', 'city', 'customer_rank']])).toEqual([
      { id: c, name: 'Twin (copy)', city: 'Austin', customer_rank: 3 },
    ]);
    const so = await e.x('sale.order', 'create', [
      { partner_id: p, order_line: [[0, 0, { name: 'Blind', price_unit: 120, product_uom_qty: 2 }]] },
    ]);
    await e.x('sale.order', 'action_confirm', [[so]]);
    const so2 = await e.x('sale.order', 'copy', [[so]], { default: { client_order_ref: 'again' } });
    const [a, b] = await e.x('sale.order', 'read', [
      [so, so2],
      ['name', 'state', 'amount_total', 'order_line', 'client_order_ref'],
    ]);
    expect(b).toMatchObject({ state: 'draft', amount_total: a.amount_total, client_order_ref: 'again' });
    expect(b.name).not.toBe(a.name);
    expect(b.order_line).toHaveLength(1);
    expect(b.order_line[0]).not.toBe(a.order_line[0]);
  });

  it('name_create makes a record from its name and answers [id, display name]', async () => {
    const [id, name] = await e.x('crm.tag', 'name_create', ['Motorised']);
    expect(name).toBe('Motorised');
    expect(await e.x('crm.tag', 'read', [[id], ['name']])).toEqual([{ id, name: 'Motorised' }]);
  });

  it('exists keeps the ids that exist; default_get answers the defaults', async () => {
    const id = await e.x('crm.tag', 'create', [{ name: 'Gone' }]);
    await e.x('crm.tag', 'unlink', [[id]]);
    const keep = await e.x('crm.tag', 'create', [{ name: 'Kept' }]);
    expect(await e.x('crm.tag', 'exists', [[keep, id]])).toEqual([keep]);
    expect(await e.x('crm.lead', 'default_get', [['type', 'priority', 'user_id', 'active']])).toEqual({
      type: 'lead',
      priority: '0',
      user_id: u,
      active: true,
    });
  });
});
