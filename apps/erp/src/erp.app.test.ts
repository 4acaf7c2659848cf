import { describe, expect, it } from 'vitest';

import { useErpHost } from '../test/support/erp-host.js';

const host = useErpHost('rpc');

const rpc = async (
  service: string,
  method: string,
  args: unknown[],
  id: unknown = 1,
  contentType = 'application/json',
) => {
  const res = await host.app.inject({
    method: 'POST',
    url: '/jsonrpc',
    headers: { 'content-type': contentType },
    payload: JSON.stringify({ jsonrpc: '2.0', method: 'call', params: { service, method, args }, id }),
  });
  expect(res.statusCode).toBe(200);
  return res.json() as {
    jsonrpc: string;
    id: unknown;
    result?: unknown;
    error?: { code: number; message: string; data: Record<string, unknown> };
  };
};
const kw = (model: string, method: string, args: unknown[], kwargs: Record<string, unknown> = {}, pw = 'pw') =>
  rpc('object', 'execute_kw', ['rpc', 2, pw, model, method, args, kwargs], 7);

describe('GET /web/health', () => {
  it('answers 200 {"status":"pass"} with Cache-Control: no-store', async () => {
    const res = await host.app.inject({ method: 'GET', url: '/web/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'pass' });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-type']).toContain('application/json');
  });
});

describe('POST /jsonrpc envelopes', () => {
  it('common.version', async () => {
    expect(await rpc('common', 'version', [], 'abc')).toEqual({
      jsonrpc: '2.0',
      id: 'abc',
      result: {
        server_version: '15.0',
        server_version_info: [15, 0, 0, 'final', 0, ''],
        server_serie: '15.0',
        protocol_version: 1,
      },
    });
  });

  it('authenticate/login return the uid, or false (not an error) on bad credentials', async () => {
    expect(await rpc('common', 'authenticate', ['rpc', 'admin', 'pw', {}])).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: 2,
    });
    expect(await rpc('common', 'login', ['rpc', 'admin', 'pw'])).toMatchObject({ result: 2 });
    expect(await rpc('common', 'authenticate', ['rpc', 'admin', 'bad', {}])).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: false,
    });
  });

  it('execute_kw with a bad password is an AccessDenied error envelope', async () => {
    const body = await kw('res.partner', 'search', [[]], {}, 'bad');
    expect(body).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: 200,
        message: 'Odoo Server Error',
        data: {
          name: 'odoo.exceptions.AccessDenied',
          debug: expect.any(String),
          message: 'Access Denied',
          arguments: ['Access Denied'],
          context: {},
        },
      },
    });
    expect(body).not.toHaveProperty('result');
  });

  it('create → id, create([...]) → ids, search_read with many2one, write → true', async () => {
    const partner = (await kw('res.partner', 'create', [{ name: 'Acme' }])).result as number;
    const ids = (await kw('crm.lead', 'create', [[{ name: 'A', partner_id: partner }, { name: 'B' }]]))
      .result as number[];
    expect(ids).toHaveLength(2);
    const read = await kw('crm.lead', 'search_read', [[['type', '=', 'lead']]], {
      fields: ['name', 'partner_id'],
      order: 'id asc',
      limit: 5,
    });
    expect(read.result).toEqual([
      { id: ids[0], name: 'A', partner_id: [partner, 'Acme'] },
      { id: ids[1], name: 'B', partner_id: false },
    ]);
    expect((await kw('crm.lead', 'write', [[ids[0]], { name: 'A2' }])).result).toBe(true);
  });

  it('object.execute takes positional arguments', async () => {
    const body = await rpc('object', 'execute', ['rpc', 2, 'pw', 'helpdesk.team', 'search_read', [], ['name']]);
    expect(body.result).toEqual([{ id: 1, name: 'Customer Care' }]);
  });

  it('ValueError for unknown fields, ValidationError for missing required fields', async () => {
    const bad = await kw('crm.lead', 'search', [[['nope', '=', 1]]]);
    expect(bad.error).toMatchObject({ code: 200, message: 'Odoo Server Error', data: { name: 'builtins.ValueError' } });
    const missing = await kw('helpdesk.ticket', 'create', [{ description: '<p>x</p>' }]);
    expect(missing.error?.data).toMatchObject({
      name: 'odoo.exceptions.ValidationError',
      message: expect.stringContaining('mandatory'),
    });
  });

  it('UserError for an unknown model, AccessError for private methods', async () => {
    expect((await kw('no.model', 'search', [[]])).error?.data).toMatchObject({
      name: 'odoo.exceptions.UserError',
      message: "Object no.model doesn't exist",
    });
    expect((await kw('crm.lead', '_search', [[]])).error?.data).toMatchObject({
      name: 'odoo.exceptions.AccessError',
      message: 'Private methods (such as _search) cannot be called remotely.',
    });
  });

  it('honours the context: active_test=false shows archived records', async () => {
    const id = (await kw('crm.tag', 'create', [{ name: 'x' }])).result as number;
    const src = (await kw('utm.source', 'create', [{ name: 'old', active: false }])).result as number;
    expect((await kw('utm.source', 'search', [[['id', '=', src]]])).result).toEqual([]);
    expect(
      (await kw('utm.source', 'search', [[['id', '=', src]]], { context: { active_test: false } })).result,
    ).toEqual([src]);
    expect(id).toBeGreaterThan(0);
  });

  it('db.list, application/json-rpc bodies, and unknown services', async () => {
    expect((await rpc('db', 'list', [], 1, 'application/json-rpc')).result).toEqual(['rpc']);
    expect((await rpc('nope', 'x', [])).error?.data).toMatchObject({ name: 'builtins.NameError' });
  });

  it('an unknown database is an error envelope', async () => {
    const body = await rpc('common', 'authenticate', ['missing', 'admin', 'pw', {}]);
    expect(body.error?.data.name).toBe('psycopg2.OperationalError');
  });
});
