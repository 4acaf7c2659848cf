import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ErpTest, startErpTest } from '../testing/scratch-erp.js';
import { syncIntrospection } from './introspection.js';

let e: ErpTest;
beforeAll(async () => {
  e = await startErpTest('introspect');
}, 120_000);
afterAll(async () => e?.close());

describe('ir.model and ir.model.fields', () => {
  it('lists every model of the ERP through search_read on ir.model', async () => {
    const rows = await e.x('ir.model', 'search_read', [[['model', 'in', ['crm.lead', 'res.partner']]]], {
      fields: ['model', 'name', 'state'],
    });
    expect(rows).toEqual([
      { id: expect.any(Number), model: 'crm.lead', name: 'Lead/Opportunity', state: 'base' },
      { id: expect.any(Number), model: 'res.partner', name: 'Contact', state: 'base' },
    ]);
    expect(await e.x('ir.model', 'search_count', [[]])).toBe(e.erp.registry.models.size);
    expect(await e.ref('base.model_res_partner')).toBe(rows[1].id);
  });

  it('describes the fields of a model, with type, relation and required', async () => {
    const rows = await e.x(
      'ir.model.fields',
      'search_read',
      [
        [
          ['model', '=', 'res.partner'],
          ['name', 'in', ['country_id', 'name', 'child_ids']],
        ],
      ],
      { fields: ['name', 'ttype', 'relation', 'relation_field', 'field_description', 'required', 'model_id'] },
    );
    const partner = await e.ref('base.model_res_partner');
    expect(rows).toEqual([
      {
        id: expect.any(Number),
        name: 'child_ids',
        ttype: 'one2many',
        relation: 'res.partner',
        relation_field: 'parent_id',
        field_description: 'Contact',
        required: false,
        model_id: [partner, 'Contact'],
      },
      {
        id: expect.any(Number),
        name: 'country_id',
        ttype: 'many2one',
        relation: 'res.country',
        relation_field: false,
        field_description: 'Country',
        required: false,
        model_id: [partner, 'Contact'],
      },
      {
        id: expect.any(Number),
        name: 'name',
        ttype: 'char',
        relation: false,
        relation_field: false,
        field_description: 'Name',
        required: false,
        model_id: [partner, 'Contact'],
      },
    ]);
    const [lead] = await e.x('ir.model', 'search_read', [[['model', '=', 'crm.lead']]], { fields: ['field_id'] });
    expect(lead.field_id.length).toBe(e.erp.registry.get('crm.lead').fields.size);
  });

  it('keeps its ids on the next start', async () => {
    const before = await e.x('ir.model.fields', 'search', [[['model', '=', 'crm.lead']]]);
    await e.t.db.transaction((q) => syncIntrospection(e.erp.env(q, 'erp_introspect', 1, {})));
    expect(await e.x('ir.model.fields', 'search', [[['model', '=', 'crm.lead']]])).toEqual(before);
  });

  it('refuses to create, change or delete models and fields over RPC', async () => {
    const [id] = await e.x('ir.model', 'search', [[['model', '=', 'crm.tag']]]);
    const denied = { odooName: 'odoo.exceptions.AccessError' };
    await expect(e.x('ir.model', 'create', [{ name: 'X', model: 'x_thing' }])).rejects.toMatchObject(denied);
    await expect(e.x('ir.model', 'write', [[id], { name: 'Renamed' }])).rejects.toMatchObject(denied);
    await expect(e.x('ir.model', 'unlink', [[id]])).rejects.toMatchObject(denied);
    const [fid] = await e.x('ir.model.fields', 'search', [
      [
        ['model', '=', 'crm.tag'],
        ['name', '=', 'name'],
      ],
    ]);
    await expect(e.x('ir.model.fields', 'write', [[fid], { required: false }])).rejects.toMatchObject(denied);
  });
});
