/**
 * The same rules whatever the codec: API-key scopes, company rules, failed-login audit and the
 * per-IP failed-login limit apply alike to /jsonrpc, XML-RPC and web sessions.
 */
import { createApiKey } from '@platform/erp-embedded/auth/apikeys.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ADMIN_PASSWORD, ERP_DB, type RestHarness, startRestHarness } from '../../../test/support/restapi-harness.js';
import { encodeCall, parseResponse } from '../../../test/support/xmlrpc-wire.js';
import { AUTH_FAILURE_LIMIT } from '../credentials/auth-failures.js';

let h: RestHarness;
beforeAll(async () => {
  h = await startRestHarness();
}, 120_000);
afterAll(async () => h?.close());

const jsonrpc = async (service: string, method: string, args: readonly unknown[]) =>
  (
    await h.app.inject({
      method: 'POST',
      url: '/jsonrpc',
      payload: { jsonrpc: '2.0', method: 'call', params: { service, method, args }, id: 1 },
    })
  ).json() as {
    result?: unknown;
    error?: { data: { name: string; message: string } };
  };
const xmlrpc = async (service: string, method: string, args: readonly unknown[]) =>
  parseResponse(
    (
      await h.app.inject({
        method: 'POST',
        url: `/xmlrpc/2/${service}`,
        headers: { 'content-type': 'text/xml' },
        payload: encodeCall(method, [...args]),
      })
    ).body,
  );
const webLogin = async (password: string) =>
  (
    await h.app.inject({
      method: 'POST',
      url: '/web/session/authenticate',
      payload: { jsonrpc: '2.0', params: { db: ERP_DB, login: 'admin', password } },
    })
  ).json() as {
    result?: { uid: number };
    error?: { data: { name: string; message: string } };
  };

describe('API keys used as passwords', () => {
  it("a key of scope 'rpc' works over JSON-RPC and XML-RPC; a key of another scope works over neither", async () => {
    const schema = `erp_${ERP_DB}`;
    const rpcKey = (await createApiKey(h.t.db, schema, 2, 'rpc key', 'rpc')).key;
    const otherKey = (await createApiKey(h.t.db, schema, 2, 'other scope', 'calendar')).key;
    const search = (key: string) =>
      ['object', 'execute_kw', [ERP_DB, 2, key, 'res.partner', 'search_count', [[]]]] as const;
    expect((await jsonrpc(...search(rpcKey))).result).toBeGreaterThan(0);
    expect((await xmlrpc(...search(rpcKey))).value).toBeGreaterThan(0);
    expect((await jsonrpc(...search(otherKey))).error?.data.name).toBe('odoo.exceptions.AccessDenied');
    expect((await xmlrpc(...search(otherKey))).fault).toEqual({ faultCode: 3, faultString: 'Access Denied' });
  });
});

describe('company rules', () => {
  it('a record of a company the caller does not belong to is an AccessError on every protocol', async () => {
    const kw = (method: string, args: unknown[]) =>
      ['object', 'execute_kw', [ERP_DB, 2, ADMIN_PASSWORD, 'res.partner', method, args]] as const;
    // A partner of a second company the admin is not a member of, created by the superuser directly.
    const companyId = (
      await h.t.db.query<{ id: number }>(
        `INSERT INTO erp_${ERP_DB}.res_company (name, currency_id) SELECT 'Elsewhere Inc', currency_id FROM erp_${ERP_DB}.res_company LIMIT 1 RETURNING id`,
      )
    ).rows[0]!.id;
    const partner = (
      await h.t.db.query<{ id: number }>(
        `INSERT INTO erp_${ERP_DB}.res_partner (name, company_id, active) VALUES ('Foreign', $1, true) RETURNING id`,
        [companyId],
      )
    ).rows[0]!.id;
    expect((await jsonrpc(...kw('read', [[partner], ['name']]))).error?.data.name).toBe('odoo.exceptions.AccessError');
    expect((await xmlrpc(...kw('read', [[partner], ['name']]))).fault).toMatchObject({ faultCode: 4 });
    expect((await xmlrpc(...kw('search_count', [[['id', '=', partner]]]))).value).toBe(0);
    const login = await h.app.inject({
      method: 'POST',
      url: '/web/session/authenticate',
      payload: { jsonrpc: '2.0', params: { db: ERP_DB, login: 'admin', password: ADMIN_PASSWORD } },
    });
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    const web = await h.app.inject({
      method: 'POST',
      url: '/web/dataset/call_kw',
      headers: { cookie },
      payload: {
        jsonrpc: '2.0',
        params: { model: 'res.partner', method: 'read', args: [[partner], ['name']], kwargs: {} },
      },
    });
    expect(web.json().error.data.name).toBe('odoo.exceptions.AccessError');
  });
});

describe('failed logins', () => {
  it("are audited with their protocol, counted per IP across protocols, and past the limit refused like Odoo's login cooldown", async () => {
    expect((await xmlrpc('common', 'authenticate', [ERP_DB, 'admin', 'wrong-1', {}])).value).toBe(false);
    expect(
      (await jsonrpc('object', 'execute_kw', [ERP_DB, 2, 'wrong-2', 'res.partner', 'search', [[]]])).error?.data.name,
    ).toBe('odoo.exceptions.AccessDenied');
    expect((await webLogin('wrong-3')).error?.data.name).toBe('odoo.exceptions.AccessDenied');
    const audit = await h.deps.audit.list(10);
    const protocols = audit.filter((a) => a.event === 'auth_failed').map((a) => a.detail.protocol);
    expect(protocols).toEqual(expect.arrayContaining(['xmlrpc', 'jsonrpc', 'web']));
    expect(JSON.stringify(audit)).not.toContain('wrong-');

    for (let i = 0; i < AUTH_FAILURE_LIMIT.max; i++) await xmlrpc('common', 'login', [ERP_DB, 'admin', `bad-${i}`]);
    const cooldown = 'Too many login failures, please wait a bit before trying again.';
    // Even the right password is refused from this IP until the window ends, on every protocol.
    expect((await xmlrpc('common', 'authenticate', [ERP_DB, 'admin', ADMIN_PASSWORD, {}])).fault).toEqual({
      faultCode: 3,
      faultString: cooldown,
    });
    expect((await jsonrpc('common', 'authenticate', [ERP_DB, 'admin', ADMIN_PASSWORD, {}])).error?.data).toMatchObject({
      name: 'odoo.exceptions.AccessDenied',
      message: cooldown,
    });
    expect((await webLogin(ADMIN_PASSWORD)).error?.data.message).toBe(cooldown);
    // Calls that check no credential are not affected.
    expect((await xmlrpc('common', 'version', [])).value).toMatchObject({ server_serie: '15.0' });
  });
});

describe("the db service's master password", () => {
  it('a wrong one is refused, audited as a failed login without the password, and never creates the database', async () => {
    const r = (
      await h.app.inject({
        method: 'POST',
        url: '/jsonrpc',
        remoteAddress: '10.9.9.9',
        payload: {
          jsonrpc: '2.0',
          method: 'call',
          params: { service: 'db', method: 'create_database', args: ['guessed-master-pw', 'intruder', false] },
          id: 1,
        },
      })
    ).json() as { error?: { data: { name: string } } };
    expect(r.error?.data.name).toBe('odoo.exceptions.AccessDenied');
    const audit = await h.deps.audit.list(50);
    expect(audit).toContainEqual(expect.objectContaining({ event: 'auth_failed', login: 'db master password' }));
    expect(JSON.stringify(audit)).not.toContain('guessed-master-pw');
    expect((await jsonrpc('db', 'list', [])).result).not.toContain('intruder');
  });
});
