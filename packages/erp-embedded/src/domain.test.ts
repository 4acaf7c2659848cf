import { createTestDb, type TestDb } from '@platform/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { EmbeddedErp } from './embedded-erp.js';

let t: TestDb;
let erp: EmbeddedErp;
let uid: number;
const x = (model: string, method: string, args: unknown[], kw: Record<string, unknown> = {}) =>
  erp.executeKw('dom', uid, 'pw', model, method, args, kw);
const ids = async (model: string, domain: unknown[], context?: Record<string, unknown>) =>
  ((await x(model, 'search', [domain], context ? { context } : {})) as number[]).sort((a, b) => a - b);

const P: Record<string, number> = {};
const L: Record<string, number> = {};
let hot = 0;
let cold = 0;

beforeAll(async () => {
  t = await createTestDb();
  erp = new EmbeddedErp(t.db);
  await erp.createDatabase('dom', { adminPassword: 'pw' });
  uid = (await erp.authenticate('dom', 'admin', 'pw')) as number;
  hot = (await x('crm.tag', 'create', [{ name: 'Hot' }])) as number;
  cold = (await x('crm.tag', 'create', [{ name: 'Cold' }])) as number;
  P.acme = (await x('res.partner', 'create', [{ name: 'Acme Corp', is_company: true, city: 'Oslo' }])) as number;
  P.joe = (await x('res.partner', 'create', [{ name: 'Joe', parent_id: P.acme, email: 'joe@acme.test' }])) as number;
  P.kid = (await x('res.partner', 'create', [{ name: 'Kid', parent_id: P.joe }])) as number;
  P.other = (await x('res.partner', 'create', [{ name: 'Other 100%_x', city: 'Bergen' }])) as number;
  L.a = (await x('crm.lead', 'create', [
    {
      name: 'Alpha',
      partner_id: P.acme,
      tag_ids: [[6, 0, [hot]]],
      expected_revenue: 100,
      priority: '2',
      email_from: 'a@x.test',
    },
  ])) as number;
  L.b = (await x('crm.lead', 'create', [
    { name: 'Beta', partner_id: P.joe, tag_ids: [[6, 0, [hot, cold]]], expected_revenue: 50, type: 'opportunity' },
  ])) as number;
  L.c = (await x('crm.lead', 'create', [
    { name: 'Gamma', partner_id: P.other, expected_revenue: 10, date_deadline: '2024-05-01' },
  ])) as number;
  L.d = (await x('crm.lead', 'create', [{ name: 'Delta archived', active: false, partner_id: P.acme }])) as number;
});
afterAll(async () => t?.drop());

describe('domain compiler', () => {
  it('[] matches every active record and hides archived ones', async () => {
    expect(await ids('crm.lead', [])).toEqual([L.a, L.b, L.c]);
  });

  it('active_test=false in the context shows archived records; naming active in the domain does too', async () => {
    expect(await ids('crm.lead', [], { active_test: false })).toEqual([L.a, L.b, L.c, L.d]);
    expect(await ids('crm.lead', [['active', '=', false]])).toEqual([L.d]);
  });

  it('compares with = != <> > >= < <=', async () => {
    expect(await ids('crm.lead', [['name', '=', 'Beta']])).toEqual([L.b]);
    expect(await ids('crm.lead', [['name', '!=', 'Beta']])).toEqual([L.a, L.c]);
    expect(await ids('crm.lead', [['name', '<>', 'Beta']])).toEqual([L.a, L.c]);
    expect(await ids('crm.lead', [['expected_revenue', '>', 50]])).toEqual([L.a]);
    expect(await ids('crm.lead', [['expected_revenue', '>=', 50]])).toEqual([L.a, L.b]);
    expect(await ids('crm.lead', [['expected_revenue', '<', 50]])).toEqual([L.c]);
    expect(await ids('crm.lead', [['expected_revenue', '<=', 50]])).toEqual([L.b, L.c]);
    expect(await ids('crm.lead', [['date_deadline', '<', '2025-01-01']])).toEqual([L.c]);
  });

  it('treats false as NULL for = and !=', async () => {
    expect(await ids('crm.lead', [['email_from', '=', false]])).toEqual([L.b, L.c]);
    expect(await ids('crm.lead', [['email_from', '!=', false]])).toEqual([L.a]);
  });

  it('=? ignores the leaf when the value is false', async () => {
    expect(await ids('crm.lead', [['name', '=?', false]])).toEqual([L.a, L.b, L.c]);
    expect(await ids('crm.lead', [['name', '=?', 'Gamma']])).toEqual([L.c]);
  });

  it('like/ilike wrap the value in %, =like/=ilike use the raw pattern', async () => {
    expect(await ids('crm.lead', [['name', 'like', 'lph']])).toEqual([L.a]);
    expect(await ids('crm.lead', [['name', 'like', 'LPH']])).toEqual([]);
    expect(await ids('crm.lead', [['name', 'ilike', 'LPH']])).toEqual([L.a]);
    expect(await ids('crm.lead', [['name', 'not like', 'a']])).toEqual([]);
    expect(await ids('crm.lead', [['name', 'not ilike', 'ALPHA']])).toEqual([L.b, L.c]);
    expect(await ids('crm.lead', [['name', '=like', 'Al%']])).toEqual([L.a]);
    expect(await ids('crm.lead', [['name', '=like', 'al%']])).toEqual([]);
    expect(await ids('crm.lead', [['name', '=ilike', 'al%']])).toEqual([L.a]);
    expect(await ids('crm.lead', [['name', '=ilike', '_eta']])).toEqual([L.b]);
  });

  it('in / not in, with false meaning NULL', async () => {
    expect(await ids('crm.lead', [['name', 'in', ['Alpha', 'Gamma']]])).toEqual([L.a, L.c]);
    expect(await ids('crm.lead', [['name', 'not in', ['Alpha', 'Gamma']]])).toEqual([L.b]);
    expect(await ids('crm.lead', [['email_from', 'in', ['a@x.test', false]]])).toEqual([L.a, L.b, L.c]);
    expect(await ids('crm.lead', [['id', 'in', []]])).toEqual([]);
    expect(await ids('crm.lead', [['id', 'not in', []]])).toEqual([L.a, L.b, L.c]);
  });

  it('prefix operators & | ! with implicit AND between items', async () => {
    expect(await ids('crm.lead', ['|', ['name', '=', 'Alpha'], ['name', '=', 'Beta']])).toEqual([L.a, L.b]);
    // ['|', A, B, C] = (A OR B) AND C
    expect(
      await ids('crm.lead', ['|', ['name', '=', 'Alpha'], ['name', '=', 'Beta'], ['type', '=', 'opportunity']]),
    ).toEqual([L.b]);
    expect(await ids('crm.lead', ['!', ['name', '=', 'Alpha']])).toEqual([L.b, L.c]);
    expect(await ids('crm.lead', ['&', ['expected_revenue', '>', 20], ['priority', '=', '2']])).toEqual([L.a]);
    expect(await ids('crm.lead', ['|', '!', ['name', '=', 'Alpha'], ['name', '=', 'Alpha']])).toEqual([L.a, L.b, L.c]);
  });

  it('follows dotted paths through many2one and x2many (any match)', async () => {
    expect(await ids('crm.lead', [['partner_id.name', 'ilike', 'acme']])).toEqual([L.a]);
    expect(await ids('crm.lead', [['partner_id.parent_id.city', '=', 'Oslo']])).toEqual([L.b]);
    expect(await ids('crm.lead', [['tag_ids.name', '=', 'Cold']])).toEqual([L.b]);
    expect(await ids('res.partner', [['child_ids.name', '=', 'Kid']])).toEqual([P.joe]);
  });

  it('many2one accepts ids and names; x2many leaves match on ids, names and emptiness', async () => {
    expect(await ids('crm.lead', [['partner_id', '=', P.joe]])).toEqual([L.b]);
    expect(await ids('crm.lead', [['partner_id', 'ilike', 'other']])).toEqual([L.c]);
    expect(await ids('crm.lead', [['tag_ids', 'in', [cold]]])).toEqual([L.b]);
    expect(await ids('crm.lead', [['tag_ids', '=', 'Hot']])).toEqual([L.a, L.b]);
    expect(await ids('crm.lead', [['tag_ids', '=', false]])).toEqual([L.c]);
    expect(await ids('crm.lead', [['tag_ids', 'not in', [cold]]])).toEqual([L.a, L.c]);
  });

  it('child_of and parent_of walk parent_id', async () => {
    expect(await ids('res.partner', [['id', 'child_of', P.acme]])).toEqual([P.acme, P.joe, P.kid]);
    expect(await ids('res.partner', [['id', 'parent_of', [P.kid]]])).toEqual([P.acme, P.joe, P.kid]);
    expect(await ids('crm.lead', [['partner_id', 'child_of', P.acme]])).toEqual([L.a, L.b]);
  });

  it('child_of / parent_of on a many2one to its own model walk that field, from the records themselves (Odoo)', async () => {
    expect(await ids('res.partner', [['parent_id', 'child_of', P.acme]])).toEqual([P.acme, P.joe, P.kid]);
    expect(await ids('res.partner', [['parent_id', 'child_of', 'Joe']])).toEqual([P.joe, P.kid]);
    expect(await ids('res.partner', [['parent_id', 'parent_of', P.kid]])).toEqual([P.acme, P.joe, P.kid]);
    expect(await ids('res.partner', [['child_ids', 'child_of', P.joe]])).toEqual([P.acme, P.joe]);
  });

  it('refuses child_of / parent_of on a plain field and an id beyond the integer range with ValueError', async () => {
    for (const op of ['child_of', 'parent_of']) {
      await expect(x('res.partner', 'search', [[['name', op, 'x']]])).rejects.toMatchObject({
        odooName: 'builtins.ValueError',
        message: expect.stringContaining(`${op} needs a relational field or id`),
      });
    }
    await expect(x('res.partner', 'search', [[['id', '=', 1e308]]])).rejects.toMatchObject({
      odooName: 'builtins.ValueError',
      message: expect.stringContaining('integer out of range'),
    });
    await expect(x('res.partner', 'search_read', [[['parent_id', 'in', [1, 2 ** 40]]]])).rejects.toMatchObject({
      odooName: 'builtins.ValueError',
    });
    await expect(x('res.partner', 'write', [[P.other], { customer_rank: 2 ** 31 }])).rejects.toMatchObject({
      odooName: 'builtins.ValueError',
    });
  });

  it('does not treat LIKE wildcards in = as patterns and keeps values parameterised', async () => {
    expect(await ids('res.partner', [['name', '=', 'Other 100%_x']])).toEqual([P.other]);
    expect(await ids('res.partner', [['name', '=', "x' OR '1'='1"]])).toEqual([]);
  });

  it('rejects unknown fields and operators with ValueError', async () => {
    await expect(x('crm.lead', 'search', [[['nope', '=', 1]]])).rejects.toMatchObject({
      odooName: 'builtins.ValueError',
    });
    await expect(x('crm.lead', 'search', [[['name', 'between', 1]]])).rejects.toMatchObject({
      odooName: 'builtins.ValueError',
    });
    await expect(x('crm.lead', 'search', [['|', ['name', '=', 'a']]])).rejects.toMatchObject({
      odooName: 'builtins.ValueError',
    });
  });

  it('orders, limits and offsets; rejects an order it cannot validate', async () => {
    expect(await x('crm.lead', 'search', [[]], { order: 'expected_revenue asc' })).toEqual([L.c, L.b, L.a]);
    expect(await x('crm.lead', 'search', [[]], { order: 'name desc', limit: 2, offset: 1 })).toEqual([L.b, L.a]);
    expect(await x('crm.lead', 'search', [[]], { order: 'partner_id desc, id' })).toEqual([L.c, L.b, L.a]);
    await expect(x('crm.lead', 'search', [[]], { order: 'name; drop table x' })).rejects.toMatchObject({
      odooName: 'builtins.ValueError',
    });
    await expect(x('crm.lead', 'search', [[]], { order: 'secret asc' })).rejects.toMatchObject({
      odooName: 'builtins.ValueError',
    });
    expect(await x('crm.lead', 'search_count', [[['type', '=', 'lead']]])).toBe(2);
  });
});
