/**
 * The two most used Odoo clients on npm, unmodified, against the embedded ERP listening on a random
 * loopback port: odoo-await (promises) and odoo-xmlrpc (callbacks), both over /xmlrpc/2.
 */
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';

import { createTestDb, type TestDb } from '@platform/db';
import { EmbeddedErp } from '@platform/erp-embedded';
import type { FastifyInstance } from 'fastify';
import OdooAwait from 'odoo-await';
import Odoo from 'odoo-xmlrpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { composeErpApp } from '../../deps.js';

let t: TestDb;
let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  t = await createTestDb();
  const erp = new EmbeddedErp(t.db);
  await erp.createDatabase('xr', { adminPassword: 'pw' });
  app = composeErpApp({ erp });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
}, 120_000);
afterAll(async () => {
  await app?.close();
  await t?.drop();
});

const awaitClient = (password = 'pw') =>
  new OdooAwait({ baseUrl: 'http://127.0.0.1', port, db: 'xr', username: 'admin', password });

describe('odoo-await over XML-RPC', () => {
  it('connects, creates a lead with tags, searches, reads, writes and unlinks it', async () => {
    const odoo = awaitClient();
    expect(await odoo.connect()).toBe(2);
    const tag = await odoo.create('crm.tag', { name: 'XML-RPC tag' });
    const created = await odoo.create('crm.lead', {
      name: 'Shutters for the den',
      email_from: 'den@example.com',
      phone: '+1 555 0100',
      tag_ids: { action: 'add', id: [Array.isArray(tag) ? tag[0] : tag] },
    });
    // odoo-await sends create([vals]); Odoo answers a list of ids for a list of values.
    const id = Array.isArray(created) ? created[0] : created;
    expect(Number.isInteger(id)).toBe(true);

    expect(await odoo.search('crm.lead', { email_from: 'den@example.com' })).toEqual([id]);
    const [row] = (await odoo.searchRead(
      'crm.lead',
      [['id', '=', id]],
      ['name', 'email_from', 'phone', 'tag_ids', 'partner_id', 'user_id', 'mobile'],
    )) as any[];
    expect(row).toMatchObject({
      id,
      name: 'Shutters for the den',
      email_from: 'den@example.com',
      phone: '+1 555 0100',
      partner_id: false,
      mobile: false,
    });
    expect(row.tag_ids).toHaveLength(1);
    // many2one as [id, display name]
    expect(row.user_id).toEqual([2, expect.any(String)]);

    expect(await odoo.update('crm.lead', id, { name: 'Plantation shutters for the den' })).toBe(true);
    const [again] = (await odoo.read('crm.lead', id, ['name', 'create_date'])) as any[];
    expect(again.name).toBe('Plantation shutters for the den');
    expect(again.create_date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    expect(await odoo.delete('crm.lead', id)).toBe(true);
    expect(await odoo.search('crm.lead', { email_from: 'den@example.com' })).toEqual([]);
  });

  it('reads a partner with its address: state and country as [id, name]', async () => {
    const odoo = awaitClient();
    await odoo.connect();
    const [us] = await odoo.search('res.country', { code: 'US' });
    const [co] = await odoo.search('res.country.state', { code: 'CO', country_id: us });
    const created = await odoo.create('res.partner', {
      name: 'Avery Window',
      street: '1550 Wewatta St',
      city: 'Denver',
      zip: '80202',
      state_id: co,
      country_id: us,
    });
    const pid = Array.isArray(created) ? created[0] : created;
    const [p] = (await odoo.searchRead(
      'res.partner',
      [['id', '=', pid]],
      ['street', 'street2', 'city', 'zip', 'state_id', 'country_id'],
    )) as any[];
    expect(p).toMatchObject({
      street: '1550 Wewatta St',
      street2: false,
      city: 'Denver',
      zip: '80202',
      state_id: [co, 'Colorado (US)'],
    });
    expect(p.country_id).toEqual([us, expect.stringMatching(/^United States/)]);
  });

  it('refuses a wrong password at connect', async () => {
    await expect(awaitClient('wrong').connect()).rejects.toMatch(/invalid credentials/);
  });

  it('surfaces Odoo faults: AccessDenied (3) for a wrong password on execute_kw, MissingError (2) for a deleted record', async () => {
    const odoo = awaitClient();
    await odoo.connect();
    const settable = odoo as unknown as { password: string };
    settable.password = 'wrong';
    await expect(odoo.searchRead('res.partner', [], ['name'])).rejects.toMatchObject({
      faultCode: 3,
      faultString: 'Access Denied',
    });
    settable.password = 'pw';
    await expect(odoo.update('res.partner', 999_999, { name: 'x' })).rejects.toMatchObject({
      faultCode: 2,
      faultString: expect.stringContaining('Record does not exist or has been deleted.'),
    });
  });
});

describe('odoo-xmlrpc', () => {
  const client = (password = 'pw') => {
    const odoo = new Odoo({ url: `http://127.0.0.1`, port, db: 'xr', username: 'admin', password });
    return {
      connect: promisify(odoo.connect.bind(odoo)) as () => Promise<number>,
      kw: promisify(odoo.execute_kw.bind(odoo)) as (model: string, method: string, params: unknown[]) => Promise<any>,
    };
  };

  it('connects, creates a lead with tags, searches, reads, writes and unlinks it', async () => {
    const odoo = client();
    expect(await odoo.connect()).toBe(2);
    const tagId = await odoo.kw('crm.tag', 'create', [[{ name: 'odoo-xmlrpc tag' }]]);
    const id = await odoo.kw('crm.lead', 'create', [
      [{ name: 'Roman shades', contact_name: 'Ann Lee', tag_ids: [[6, 0, [tagId]]] }],
    ]);
    expect(Number.isInteger(id)).toBe(true);
    const ids = await odoo.kw('crm.lead', 'search', [[[['contact_name', '=', 'Ann Lee']]]]);
    expect(ids).toEqual([id]);
    const rows = await odoo.kw('crm.lead', 'read', [[ids], { fields: ['name', 'tag_ids', 'email_from', 'user_id'] }]);
    expect(rows).toEqual([
      { id, name: 'Roman shades', tag_ids: [tagId], email_from: false, user_id: [2, expect.any(String)] },
    ]);
    expect(await odoo.kw('crm.lead', 'write', [[[id], { email_from: 'ann@example.com' }]])).toBe(true);
    expect(await odoo.kw('crm.lead', 'search_count', [[[['email_from', '=', 'ann@example.com']]]])).toBe(1);
    expect(await odoo.kw('crm.lead', 'unlink', [[[id]]])).toBe(true);
    expect(await odoo.kw('crm.lead', 'search_count', [[[['id', '=', id]]]])).toBe(0);
  });

  it('reads a partner with its address fields', async () => {
    const odoo = client();
    await odoo.connect();
    const [us] = await odoo.kw('res.country', 'search', [[[['code', '=', 'US']]]]);
    const pid = await odoo.kw('res.partner', 'create', [
      [{ name: 'Blair Blinds', street: '12 Pine Rd', city: 'Austin', zip: '78701', country_id: us }],
    ]);
    const rows = await odoo.kw('res.partner', 'read', [
      [[pid]],
      { fields: ['street', 'city', 'zip', 'state_id', 'country_id'] },
    ]);
    expect(rows).toEqual([
      {
        id: pid,
        street: '12 Pine Rd',
        city: 'Austin',
        zip: '78701',
        state_id: false,
        country_id: [us, expect.stringMatching(/^United States/)],
      },
    ]);
  });

  it('refuses a wrong password at connect', async () => {
    await expect(client('nope').connect()).rejects.toMatchObject({ message: 'No UID returned from authentication.' });
  });
});
