import { createTestDb, type TestDb } from '@platform/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { EmbeddedErp } from './embedded-erp.js';

let t: TestDb;
let erp: EmbeddedErp;
let uid: number;
const x = (model: string, method: string, args: unknown[], kw: Record<string, unknown> = {}, db = 'orm') =>
  erp.executeKw(db, uid, 'pw', model, method, args, kw);
const tagsOf = async (lead: number) =>
  ((await x('crm.lead', 'read', [[lead], ['tag_ids']])) as { tag_ids: number[] }[])[0]!.tag_ids;

beforeAll(async () => {
  t = await createTestDb();
  erp = new EmbeddedErp(t.db);
  await erp.createDatabase('orm', { adminPassword: 'pw' });
  uid = (await erp.authenticate('orm', 'admin', 'pw')) as number;
});
afterAll(async () => t?.drop());

describe('read formatting', () => {
  it('returns false for empty values, [id, name] for many2one, id lists for x2many, UTC datetimes', async () => {
    const p = await x('res.partner', 'create', [{ name: 'Acme' }]);
    const tag = await x('crm.tag', 'create', [{ name: 'Hot' }]);
    const id = await x('crm.lead', 'create', [{ name: 'L', partner_id: p, tag_ids: [[4, tag, 0]] }]);
    const [r] = (await x('crm.lead', 'read', [[id]], {})) as Record<string, unknown>[];
    expect(r).toMatchObject({
      id,
      name: 'L',
      partner_id: [p, 'Acme'],
      tag_ids: [tag],
      email_from: false,
      description: false,
      type: 'lead',
      priority: '0',
      active: true,
      expected_revenue: 0,
      date_deadline: false,
      user_id: [uid, 'Administrator'],
      create_uid: [uid, 'Administrator'],
      display_name: 'L',
    });
    expect(r!.create_date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(Math.abs(Date.parse(`${String(r!.create_date).replace(' ', 'T')}Z`) - Date.now())).toBeLessThan(60_000);
  });

  it('reads only the asked fields plus id, in the order of the ids, and MissingError for unknown ids', async () => {
    const a = await x('crm.tag', 'create', [{ name: 'A' }]);
    const b = await x('crm.tag', 'create', [{ name: 'B' }]);
    expect(await x('crm.tag', 'read', [[b, a], ['name']])).toEqual([
      { id: b, name: 'B' },
      { id: a, name: 'A' },
    ]);
    await expect(x('crm.tag', 'read', [[a, 99999], ['name']])).rejects.toMatchObject({
      odooName: 'odoo.exceptions.MissingError',
    });
    await expect(x('crm.tag', 'read', [[a], ['nope']])).rejects.toMatchObject({ odooName: 'builtins.ValueError' });
  });

  it('never returns password hashes', async () => {
    const [u] = (await x('res.users', 'read', [[uid], ['login', 'password']])) as Record<string, unknown>[];
    expect(u).toEqual({ id: uid, login: 'admin', password: '' });
  });
});

describe('create / write / unlink', () => {
  it('create accepts a dict (id) or a list of dicts (ids); write and unlink return true', async () => {
    const one = await x('crm.tag', 'create', [{ name: 'one' }]);
    const many = await x('crm.tag', 'create', [[{ name: 'two' }, { name: 'three' }]]);
    expect(typeof one).toBe('number');
    expect(many).toHaveLength(2);
    expect(await x('crm.tag', 'write', [many, { color: 3 }])).toBe(true);
    expect(await x('crm.tag', 'search_count', [[['color', '=', 3]]])).toBe(2);
    expect(await x('crm.tag', 'unlink', [many])).toBe(true);
    expect(await x('crm.tag', 'search', [[['id', 'in', many]]])).toEqual([]);
  });

  it('maintains write_date and write_uid', async () => {
    const id = await x('crm.tag', 'create', [{ name: 'w' }]);
    await x('crm.tag', 'write', [[id], { name: 'w2' }]);
    const [r] = (await x('crm.tag', 'read', [[id], ['write_uid', 'write_date']])) as Record<string, unknown>[];
    expect(r!.write_uid).toEqual([uid, 'Administrator']);
    expect(r!.write_date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('enforces required fields with a ValidationError and bad values with ValueError', async () => {
    await expect(x('crm.lead', 'create', [{ email_from: 'a@b.c' }])).rejects.toMatchObject({
      odooName: 'odoo.exceptions.ValidationError',
      message: expect.stringContaining('crm.lead'),
    });
    const id = await x('crm.lead', 'create', [{ name: 'ok' }]);
    await expect(x('crm.lead', 'write', [[id], { name: false }])).rejects.toMatchObject({
      odooName: 'odoo.exceptions.ValidationError',
    });
    await expect(x('crm.lead', 'write', [[id], { priority: '7' }])).rejects.toMatchObject({
      odooName: 'builtins.ValueError',
    });
    await expect(x('crm.lead', 'write', [[id], { bogus: 1 }])).rejects.toMatchObject({
      odooName: 'builtins.ValueError',
    });
    await expect(x('crm.lead', 'write', [[id], { date_deadline: '01/02/2024' }])).rejects.toMatchObject({
      odooName: 'builtins.ValueError',
    });
    // nothing of the failed writes was kept
    expect(await x('crm.lead', 'read', [[id], ['name', 'priority']])).toEqual([{ id, name: 'ok', priority: '0' }]);
  });

  it('rolls back the whole call when a later record fails', async () => {
    // The second record lacks the required name: Odoo's ValidationError, and the first is not kept.
    await expect(x('crm.tag', 'create', [[{ name: 'kept?' }, { color: 1 }]])).rejects.toMatchObject({
      odooName: 'odoo.exceptions.ValidationError',
      message: expect.stringContaining('Field: Tag Name (name)'),
    });
    expect(await x('crm.tag', 'search', [[['name', '=', 'kept?']]])).toEqual([]);
  });

  it('refuses a many2one to a missing record', async () => {
    await expect(x('crm.lead', 'create', [{ name: 'x', partner_id: 987654 }])).rejects.toMatchObject({
      odooName: 'odoo.exceptions.ValidationError',
    });
  });

  it('keeps ir.model.data (module, name) unique and removes external ids with their record', async () => {
    const lead = await x('crm.lead', 'create', [{ name: 'ext' }]);
    await x('ir.model.data', 'create', [{ module: '__platform__', name: 'lead_1', model: 'crm.lead', res_id: lead }]);
    await expect(
      x('ir.model.data', 'create', [{ module: '__platform__', name: 'lead_1', model: 'crm.lead', res_id: lead }]),
    ).rejects.toMatchObject({ odooName: 'odoo.exceptions.ValidationError' });
    await x('crm.lead', 'unlink', [[lead]]);
    expect(await x('ir.model.data', 'search_count', [[['name', '=', 'lead_1']]])).toBe(0);
  });
});

describe('x2many commands', () => {
  it('applies all seven command tuples on a many2many', async () => {
    const [a, b, c] = (await x('crm.tag', 'create', [[{ name: 'a' }, { name: 'b' }, { name: 'c' }]])) as number[];
    const lead = (await x('crm.lead', 'create', [{ name: 'm2m', tag_ids: [[6, 0, [a, b]]] }])) as number;
    expect((await tagsOf(lead)).sort()).toEqual([a, b].sort());
    await x('crm.lead', 'write', [[lead], { tag_ids: [[0, 0, { name: 'new' }]] }]);
    const created = (await x('crm.tag', 'search', [[['name', '=', 'new']]])) as number[];
    expect(await tagsOf(lead)).toContain(created[0]);
    await x('crm.lead', 'write', [[lead], { tag_ids: [[1, a, { name: 'a2' }]] }]);
    expect(await x('crm.tag', 'read', [[a], ['name']])).toEqual([{ id: a, name: 'a2' }]);
    await x('crm.lead', 'write', [[lead], { tag_ids: [[3, b, 0]] }]);
    expect(await tagsOf(lead)).not.toContain(b);
    expect(await x('crm.tag', 'search_count', [[['id', '=', b]]])).toBe(1); // unlinked, not deleted
    await x('crm.lead', 'write', [[lead], { tag_ids: [[2, created[0], 0]] }]);
    expect(await x('crm.tag', 'search_count', [[['id', '=', created[0]]]])).toBe(0); // deleted
    await x('crm.lead', 'write', [[lead], { tag_ids: [[4, c, 0]] }]);
    expect((await tagsOf(lead)).sort()).toEqual([a, c].sort());
    await x('crm.lead', 'write', [[lead], { tag_ids: [[5, 0, 0]] }]);
    expect(await tagsOf(lead)).toEqual([]);
  });

  it('applies commands on a one2many (children of a partner)', async () => {
    const parent = (await x('res.partner', 'create', [
      {
        name: 'Co',
        child_ids: [
          [0, 0, { name: 'c1' }],
          [0, 0, { name: 'c2' }],
        ],
      },
    ])) as number;
    const kids = async () =>
      ((await x('res.partner', 'read', [[parent], ['child_ids']])) as { child_ids: number[] }[])[0]!.child_ids;
    const [c1, c2] = await kids();
    expect(await x('res.partner', 'read', [[c1!], ['parent_id']])).toEqual([{ id: c1, parent_id: [parent, 'Co'] }]);
    await x('res.partner', 'write', [[parent], { child_ids: [[3, c1, 0]] }]);
    expect(await kids()).toEqual([c2]);
    const loose = (await x('res.partner', 'create', [{ name: 'loose' }])) as number;
    await x('res.partner', 'write', [[parent], { child_ids: [[6, 0, [loose]]] }]);
    expect(await kids()).toEqual([loose]);
    expect(await x('res.partner', 'search_count', [[['id', '=', c2!]]])).toBe(1);
  });

  it('refuses a partner hierarchy cycle (direct, indirect or through child_ids) and keeps nothing of it', async () => {
    const recursive = {
      odooName: 'odoo.exceptions.ValidationError',
      message: 'You cannot create recursive Partner hierarchies.',
    };
    const top = (await x('res.partner', 'create', [{ name: 'top' }])) as number;
    const mid = (await x('res.partner', 'create', [{ name: 'mid', parent_id: top }])) as number;
    const low = (await x('res.partner', 'create', [{ name: 'low', parent_id: mid }])) as number;
    await expect(x('res.partner', 'write', [[top], { parent_id: top }])).rejects.toMatchObject(recursive);
    await expect(x('res.partner', 'write', [[top], { parent_id: low, name: 'top2' }])).rejects.toMatchObject(recursive);
    await expect(x('res.partner', 'write', [[low], { child_ids: [[4, top, 0]] }])).rejects.toMatchObject(recursive);
    expect(await x('res.partner', 'read', [[top], ['name', 'parent_id']])).toEqual([
      { id: top, name: 'top', parent_id: false },
    ]);
    expect(await x('res.partner', 'write', [[low], { parent_id: top }])).toBe(true); // a re-parent without a cycle is fine
  });

  it('rejects a malformed command with ValueError', async () => {
    await expect(x('crm.lead', 'create', [{ name: 'bad', tag_ids: [[9, 0, 0]] }])).rejects.toMatchObject({
      odooName: 'builtins.ValueError',
    });
  });
});

describe('methods and databases', () => {
  it('fields_get describes fields with Odoo attribute names', async () => {
    const f = (await x('crm.lead', 'fields_get', [], { attributes: ['type', 'relation', 'required'] })) as Record<
      string,
      unknown
    >;
    expect(f.tag_ids).toEqual({ type: 'many2many', relation: 'crm.tag', required: false });
    expect(f.name).toEqual({ type: 'char', required: true });
    expect(f.x_gclid).toEqual({ type: 'char', required: false });
  });

  it('name_search returns [id, name] pairs', async () => {
    const id = await x('utm.source', 'create', [{ name: 'Newsletter' }]);
    expect(await x('utm.source', 'name_search', ['newsl'])).toEqual([[id, 'Newsletter']]);
  });

  it('unknown models and methods fail as in Odoo', async () => {
    await expect(x('no.such', 'search', [[]])).rejects.toMatchObject({ odooName: 'odoo.exceptions.UserError' });
    await expect(x('crm.lead', 'frobnicate', [])).rejects.toMatchObject({ odooName: 'builtins.AttributeError' });
    await expect(x('crm.lead', '_private', [])).rejects.toMatchObject({ odooName: 'odoo.exceptions.AccessError' });
  });

  it('seeds the helpdesk team and stages, and keeps two databases isolated', async () => {
    expect(await x('helpdesk.stage', 'search_read', [[]], { fields: ['name'] })).toEqual([
      { id: 1, name: 'New' },
      { id: 2, name: 'In Progress' },
      { id: 3, name: 'Solved' },
    ]);
    await erp.createDatabase('orm_other', { adminPassword: 'pw2' });
    const uid2 = (await erp.authenticate('orm_other', 'admin', 'pw2')) as number;
    expect(await erp.authenticate('orm_other', 'admin', 'pw')).toBe(false);
    await erp.executeKw('orm_other', uid2, 'pw2', 'crm.lead', 'create', [{ name: 'only in other' }]);
    expect(await x('crm.lead', 'search_count', [[['name', '=', 'only in other']]])).toBe(0);
    expect(await erp.executeKw('orm_other', uid2, 'pw2', 'crm.lead', 'search_count', [[]])).toBe(1);
    expect(await erp.listDatabases()).toEqual(['orm', 'orm_other']);
    await erp.dropDatabase('orm_other');
    expect(await erp.listDatabases()).toEqual(['orm']);
    await expect(erp.authenticate('orm_other', 'admin', 'pw2')).rejects.toMatchObject({
      odooName: 'psycopg2.OperationalError',
    });
  });
});

describe('context defaults', () => {
  it('default_<field> in the context sets a field missing from the values', async () => {
    const id = await x('crm.lead', 'create', [{ name: 'ctx' }], { context: { default_type: 'opportunity' } });
    const other = await x('crm.lead', 'create', [{ name: 'ctx2', type: 'lead' }], {
      context: { default_type: 'opportunity' },
    });
    expect(await x('crm.lead', 'read', [[id, other], ['type']])).toEqual([
      { id, type: 'opportunity' },
      { id: other, type: 'lead' },
    ]);
  });
});
