/** REST list/read/create/write/unlink on partners and leads with an API key (`X-API-Key`). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { apiKey, type RestHarness, startRestHarness } from '../../../test/support/restapi-harness.js';

let h: RestHarness;
let key: string;
beforeAll(async () => {
  h = await startRestHarness({ pageSizes: { pageSize: 3, maxPageSize: 5 } });
  ({ key } = await apiKey(h, 'read:res.partner write:res.partner read:crm.lead write:crm.lead'));
});
afterAll(async () => h?.close());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, k = key) =>
  h.app.inject({
    method,
    url: `/restapi/1.0/object/${url}`,
    headers: { 'x-api-key': k },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

describe.each([
  ['res.partner', { name: 'Acme Blinds', email: 'info@acme.example', is_company: true }, { phone: '+1 555 0100' }],
  [
    'crm.lead',
    { name: 'Shutters for 3 windows', email_from: 'jane@example.com', contact_name: 'Jane' },
    { priority: '2' },
  ],
])('%s', (model, values, change) => {
  let id: number;

  it('POST creates (201, Location, the record re-read)', async () => {
    const res = await call('POST', model, values);
    expect(res.statusCode).toBe(201);
    const body = res.json() as { id: number };
    id = body.id;
    expect(res.headers.location).toBe(`/restapi/1.0/object/${model}/${id}`);
    expect(body).toMatchObject(values);
  });

  it('GET /<id> reads one, with the requested fields', async () => {
    const res = await call('GET', `${model}/${id}?fields=${Object.keys(values).join(',')}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id, ...values });
  });

  it('GET lists with a JSON domain, fields and the total', async () => {
    const domain = encodeURIComponent(JSON.stringify([['id', '=', id]]));
    const res = await call('GET', `${model}?domain=${domain}&fields=name`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ model, total: 1, offset: 0, limit: 3, records: [{ id, name: values.name }] });
  });

  it('PUT writes and returns the record', async () => {
    const res = await call('PUT', `${model}/${id}`, change);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, ...values, ...change });
  });

  it('DELETE unlinks (204); the record is then 404', async () => {
    expect((await call('DELETE', `${model}/${id}`)).statusCode).toBe(204);
    const gone = await call('GET', `${model}/${id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ code: 'RECORD_NOT_FOUND', status: 404 });
    expect((await call('PUT', `${model}/${id}`, change)).json()).toMatchObject({ code: 'RECORD_NOT_FOUND' });
    expect((await call('DELETE', `${model}/${id}`)).statusCode).toBe(404);
  });
});

describe('pagination', () => {
  beforeAll(async () => {
    for (const n of [1, 2, 3, 4, 5, 6, 7])
      await call('POST', 'crm.lead', { name: `Page lead ${n}`, referred: 'pagination' });
  });
  const domain = encodeURIComponent(JSON.stringify([['referred', '=', 'pagination']]));

  it('uses the default page size and reports the total', async () => {
    const body = (await call('GET', `crm.lead?domain=${domain}&order=id asc&fields=name`)).json() as {
      total: number;
      limit: number;
      records: { name: string }[];
    };
    expect(body.total).toBe(7);
    expect(body.limit).toBe(3);
    expect(body.records.map((r) => r.name)).toEqual(['Page lead 1', 'Page lead 2', 'Page lead 3']);
  });

  it('honours offset and order, and caps limit at the maximum page size', async () => {
    const body = (
      await call('GET', `crm.lead?domain=${domain}&order=id desc&fields=name&limit=100&offset=1`)
    ).json() as { offset: number; limit: number; records: { name: string }[] };
    expect(body.limit).toBe(5);
    expect(body.offset).toBe(1);
    expect(body.records.map((r) => r.name)).toEqual([
      'Page lead 6',
      'Page lead 5',
      'Page lead 4',
      'Page lead 3',
      'Page lead 2',
    ]);
  });
});

describe('request errors are problem+json', () => {
  it.each([
    ['domain that is not JSON', 'res.partner?domain=[(', 422, 'VALIDATION_FAILED'],
    ['domain that is not a list', 'res.partner?domain={}', 422, 'VALIDATION_FAILED'],
    [
      'domain on an unknown field',
      `res.partner?domain=${encodeURIComponent('[["nope","=",1]]')}`,
      422,
      'ERP_VALIDATION',
    ],
    ['unknown field in fields', 'res.partner?fields=nope', 422, 'ERP_VALIDATION'],
    ['malformed order', 'res.partner?order=name;drop', 422, 'VALIDATION_FAILED'],
    ['negative limit', 'res.partner?limit=-1', 422, 'VALIDATION_FAILED'],
    ['id that is not a number', 'res.partner/abc', 422, 'VALIDATION_FAILED'],
  ])('%s → %i %s', async (_what, url, status, code) => {
    const res = await call('GET', url);
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({ status, code });
  });

  it("values the ERP refuses are 422 ERP_VALIDATION with Odoo's exception name", async () => {
    const res = await call('POST', 'crm.lead', { name: 'x', priority: '9' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'ERP_VALIDATION', erp_error: 'builtins.ValueError' });
    expect((await call('POST', 'crm.lead', [{ name: 'x' }])).json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((await call('POST', 'crm.lead', { id: 5, name: 'x' })).json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
