/**
 * The web session API over real HTTP with a cookie, as odoorpc and Odoo's web client use it:
 * /web/session/authenticate, then /web/dataset/call_kw with the `session_id` cookie.
 */
import type { AddressInfo } from 'node:net';

import { createTestDb, type TestDb } from '@platform/db';
import { EmbeddedErp } from '@platform/erp-embedded';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { composeErpApp } from '../../deps.js';

let t: TestDb;
let erp: EmbeddedErp;
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  t = await createTestDb();
  erp = new EmbeddedErp(t.db);
  await erp.createDatabase('ws', { adminPassword: 'pw' });
  await erp.createDatabase('other', { adminPassword: 'other-pw' });
  app = composeErpApp({ erp });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  await app?.close();
  await t?.drop();
});

interface Envelope {
  jsonrpc: string;
  id: unknown;
  result?: any;
  error?: { code: number; message: string; data: { name: string; message: string } };
}

async function jsonCall(path: string, params: Record<string, unknown>, cookie?: string) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'call', params, id: 5 }),
  });
  return { status: res.status, setCookie: res.headers.get('set-cookie'), body: (await res.json()) as Envelope };
}

async function login(db = 'ws', password = 'pw') {
  const r = await jsonCall('/web/session/authenticate', { db, login: 'admin', password });
  const sid = /session_id=([0-9a-f]{40})/.exec(r.setCookie ?? '')?.[1];
  return { ...r, cookie: sid ? `session_id=${sid}` : undefined };
}

const callKw = (
  cookie: string | undefined,
  model: string,
  method: string,
  args: unknown[],
  kwargs: Record<string, unknown> = {},
  path = '/web/dataset/call_kw',
) => jsonCall(path, { model, method, args, kwargs }, cookie);

describe('/web/session/authenticate', () => {
  it("opens a session: HttpOnly session_id cookie and Odoo 15's session_info (uid, user_context, db)", async () => {
    const r = await login();
    expect(r.status).toBe(200);
    expect(r.setCookie).toMatch(/^session_id=[0-9a-f]{40}; Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(r.body.result).toMatchObject({
      uid: 2,
      db: 'ws',
      username: 'admin',
      user_context: { lang: 'en_US', tz: false, uid: 2 },
      server_version_info: [15, 0, 0, 'final', 0, ''],
      company_id: expect.any(Number),
      partner_id: expect.any(Number),
      user_companies: { current_company: expect.any(Number), allowed_companies: expect.any(Object) },
    });
    const info = await jsonCall('/web/session/get_session_info', {}, r.cookie);
    expect(info.body.result).toMatchObject({ uid: 2, db: 'ws' });
    // Odoo also takes the session id from the X-Openerp-Session-Id header.
    const byHeader = await fetch(`${base}/web/session/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-openerp-session-id': r.cookie!.slice('session_id='.length) },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'call', params: {}, id: 9 }),
    });
    expect(await byHeader.json()).toEqual({ jsonrpc: '2.0', id: 9 });
  });

  it('a wrong password is AccessDenied and sets no cookie; an API key is refused (web logins are interactive)', async () => {
    const r = await login('ws', 'nope');
    expect(r.setCookie).toBeNull();
    expect(r.body.error).toMatchObject({
      code: 200,
      message: 'Odoo Server Error',
      data: { name: 'odoo.exceptions.AccessDenied', message: 'Access Denied' },
    });
    const { key } = await erp.createApiKey('ws', 'admin', 'web login attempt');
    expect((await login('ws', key)).body.error?.data.name).toBe('odoo.exceptions.AccessDenied');
  });

  it('names a missing parameter as Python does', async () => {
    const r = await jsonCall('/web/session/authenticate', { db: 'ws', login: 'admin' });
    expect(r.body.error?.data).toMatchObject({
      name: 'builtins.TypeError',
      message: "authenticate() missing 1 required positional argument: 'password'",
    });
  });
});

describe('/web/dataset/call_kw with the session cookie', () => {
  it('searches, reads, creates a lead with tags, writes and unlinks it', async () => {
    const { cookie } = await login();
    const tag = (await callKw(cookie, 'crm.tag', 'create', [{ name: 'web tag' }])).body.result as number;
    const id = (
      await callKw(cookie, 'crm.lead', 'create', [
        { name: 'Cellular shades', email_from: 'cell@example.com', tag_ids: [[6, 0, [tag]]] },
      ])
    ).body.result as number;
    expect(Number.isInteger(id)).toBe(true);
    expect(
      (await callKw(cookie, 'crm.lead', 'search', [[['email_from', '=', 'cell@example.com']]])).body.result,
    ).toEqual([id]);
    const read = await callKw(
      cookie,
      'crm.lead',
      'read',
      [[id], ['name', 'tag_ids', 'user_id', 'phone']],
      {},
      '/web/dataset/call_kw/crm.lead/read',
    );
    expect(read.body.result).toEqual([
      { id, name: 'Cellular shades', tag_ids: [tag], user_id: [2, expect.any(String)], phone: false },
    ]);
    expect((await callKw(cookie, 'crm.lead', 'write', [[id], { phone: '555-0101' }])).body.result).toBe(true);
    const page = await jsonCall(
      '/web/dataset/search_read',
      { model: 'crm.lead', domain: [['id', '=', id]], fields: ['phone'], limit: 80 },
      cookie,
    );
    expect(page.body.result).toEqual({ length: 1, records: [{ id, phone: '555-0101' }] });
    expect((await callKw(cookie, 'crm.lead', 'unlink', [[id]])).body.result).toBe(true);
    expect((await callKw(cookie, 'crm.lead', 'search_count', [[['id', '=', id]]])).body.result).toBe(0);
  });

  it('Odoo errors keep their envelope: UserError for an unknown model, AccessError for a private method', async () => {
    const { cookie } = await login();
    expect((await callKw(cookie, 'no.model', 'search', [[]])).body.error?.data.name).toBe('odoo.exceptions.UserError');
    expect((await callKw(cookie, 'res.partner', '_secret', [])).body.error?.data.name).toBe(
      'odoo.exceptions.AccessError',
    );
  });

  it('without a session, or after destroy, answers code 100 "Odoo Session Expired"', async () => {
    const none = await callKw(undefined, 'res.partner', 'search', [[]]);
    expect(none.body.error).toMatchObject({
      code: 100,
      message: 'Odoo Session Expired',
      data: { name: 'odoo.http.SessionExpiredException' },
    });
    const { cookie } = await login();
    expect((await callKw(cookie, 'res.partner', 'search_count', [[]])).body.result).toBeGreaterThan(0);
    const out = await jsonCall('/web/session/destroy', {}, cookie);
    expect(out.body).toEqual({ jsonrpc: '2.0', id: 5 });
    expect(out.setCookie).toMatch(/^session_id=; Max-Age=0/);
    expect((await callKw(cookie, 'res.partner', 'search_count', [[]])).body.error?.code).toBe(100);
  });
});

describe('sessions are bound to one database and one credential', () => {
  it("never serves another database: ?db=other with ws's session is expired; each session sees its own data", async () => {
    const ws = await login('ws');
    const other = await login('other', 'other-pw');
    await callKw(other.cookie, 'res.partner', 'create', [{ name: 'Only in other' }]);
    const res = await fetch(`${base}/web/dataset/call_kw?db=other`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: ws.cookie! },
      body: JSON.stringify({
        jsonrpc: '2.0',
        method: 'call',
        params: { model: 'res.partner', method: 'search', args: [[]], kwargs: {} },
        id: 1,
      }),
    });
    expect(((await res.json()) as Envelope).error?.code).toBe(100);
    expect(
      (await callKw(ws.cookie, 'res.partner', 'search_count', [[['name', '=', 'Only in other']]])).body.result,
    ).toBe(0);
    expect(
      (await callKw(other.cookie, 'res.partner', 'search_count', [[['name', '=', 'Only in other']]])).body.result,
    ).toBe(1);
  });

  it("ends when the user's password changes", async () => {
    await erp.createDatabase('pwchange', { adminPassword: 'first' });
    const s = await login('pwchange', 'first');
    expect((await callKw(s.cookie, 'res.partner', 'search_count', [[]])).body.result).toBeGreaterThan(0);
    await erp.setPassword('pwchange', 'admin', 'second');
    expect((await callKw(s.cookie, 'res.partner', 'search_count', [[]])).body.error?.code).toBe(100);
  });

  it('expires after its idle lifetime', async () => {
    const short = composeErpApp({ erp, sessionTtlSeconds: 1 });
    try {
      const r = await short.inject({
        method: 'POST',
        url: '/web/session/authenticate',
        payload: { jsonrpc: '2.0', params: { db: 'ws', login: 'admin', password: 'pw' } },
      });
      const cookie = String(r.headers['set-cookie']).split(';')[0]!;
      const call = () =>
        short.inject({
          method: 'POST',
          url: '/web/session/check',
          headers: { cookie },
          payload: { jsonrpc: '2.0', params: {} },
        });
      expect((await call()).json()).toEqual({ jsonrpc: '2.0', id: null });
      await new Promise((r) => setTimeout(r, 1_300));
      expect((await call()).json().error.code).toBe(100);
    } finally {
      await short.close();
    }
  });
});

describe('database and version routes', () => {
  it('/web/database/list and /web/webclient/version_info', async () => {
    expect((await jsonCall('/web/database/list', {})).body.result).toEqual(expect.arrayContaining(['ws', 'other']));
    expect((await jsonCall('/web/webclient/version_info', {})).body.result).toMatchObject({
      server_serie: '15.0',
      protocol_version: 1,
    });
  });
});

describe('unknown routes answer as Odoo', () => {
  it('a browser GET gets the 404 page, a JSON-RPC POST a JSON-RPC error with code 404', async () => {
    const page = await fetch(`${base}/web/nothing-here`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<title>404 Not Found</title>');
    const rpc = await jsonCall('/web/dataset/nothing', {});
    expect(rpc.status).toBe(404);
    expect(rpc.body).toMatchObject({
      jsonrpc: '2.0',
      id: 5,
      error: { code: 404, message: '404: Not Found', data: { name: 'werkzeug.exceptions.NotFound' } },
    });
  });
});
