/**
 * The calls of Odoo 15's External API documentation ("Calling methods", "List records", "Count
 * records", "Read records", "Listing record fields", "Search and read", "Create/Update/Delete
 * records"), made as its Python examples make them, over /xmlrpc/2 on a real socket.
 */
import type { AddressInfo } from 'node:net';

import { createTestDb, type TestDb } from '@platform/db';
import { EmbeddedErp } from '@platform/erp-embedded';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { xmlrpcCall } from '../../../test/support/xmlrpc-wire.js';
import { composeErpApp } from '../../deps.js';

let t: TestDb;
let app: FastifyInstance;
let url: string;
const [db, username, password] = ['docs', 'admin', 'pw'];

beforeAll(async () => {
  t = await createTestDb();
  const erp = new EmbeddedErp(t.db);
  await erp.createDatabase(db, { adminPassword: password });
  app = composeErpApp({ erp });
  await app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  await app?.close();
  await t?.drop();
});

const common = async (method: string, params: unknown[]) =>
  (await xmlrpcCall(`${url}/xmlrpc/2/common`, method, params)).value;
async function models(...params: unknown[]): Promise<any> {
  const r = await xmlrpcCall(`${url}/xmlrpc/2/object`, 'execute_kw', params);
  if (r.fault) throw Object.assign(new Error(String(r.fault.faultString)), r.fault);
  return r.value;
}

describe("Odoo 15's External API documentation, over XML-RPC", () => {
  it('logs in, then lists, counts, reads, describes, creates, updates and deletes partners', async () => {
    expect(await common('version', [])).toMatchObject({ server_version: '15.0', protocol_version: 1 });
    const uid = await common('authenticate', [db, username, password, {}]);
    expect(uid).toBe(2);
    expect(
      await models(db, uid, password, 'res.partner', 'check_access_rights', ['read'], { raise_exception: false }),
    ).toBe(true);

    for (let i = 0; i < 3; i++)
      await models(db, uid, password, 'res.partner', 'create', [{ name: `Company ${i}`, is_company: true }]);
    const companies = await models(db, uid, password, 'res.partner', 'search', [[['is_company', '=', true]]]);
    expect(companies.length).toBeGreaterThanOrEqual(3);
    expect(
      await models(db, uid, password, 'res.partner', 'search', [[['is_company', '=', true]]], { offset: 1, limit: 1 }),
    ).toEqual([companies[1]]);
    expect(await models(db, uid, password, 'res.partner', 'search_count', [[['is_company', '=', true]]])).toBe(
      companies.length,
    );

    const [first] = await models(db, uid, password, 'res.partner', 'read', [[companies[0]]]);
    expect(Object.keys(first).length).toBeGreaterThan(10);
    expect(
      await models(db, uid, password, 'res.partner', 'read', [[companies[0]]], { fields: ['name', 'comment'] }),
    ).toEqual([{ id: companies[0], name: first.name, comment: false }]);
    const fields = await models(db, uid, password, 'res.partner', 'fields_get', [], {
      attributes: ['string', 'help', 'type'],
    });
    expect(fields.name).toMatchObject({ type: 'char', string: expect.any(String) });
    expect(
      await models(db, uid, password, 'res.partner', 'search_read', [[['is_company', '=', true]]], {
        fields: ['name', 'comment'],
        limit: 5,
      }),
    ).toHaveLength(Math.min(5, companies.length));

    const id = await models(db, uid, password, 'res.partner', 'create', [{ name: 'New Partner' }]);
    expect(await models(db, uid, password, 'res.partner', 'write', [[id], { name: 'Newer partner' }])).toBe(true);
    expect(await models(db, uid, password, 'res.partner', 'name_get', [[id]])).toEqual([[id, 'Newer partner']]);
    expect(await models(db, uid, password, 'res.partner', 'unlink', [[id]])).toBe(true);
    expect(await models(db, uid, password, 'res.partner', 'search', [[['id', '=', id]]])).toEqual([]);
    expect((await xmlrpcCall(`${url}/xmlrpc/2/db`, 'list', [])).value).toContain(db);
  });
});
