/**
 * The wire contract of Odoo 15's XML-RPC and web session protocols, recorded as fixtures
 * (fixtures/odoo15/wire/*.json: request, and Odoo's answer as bytes on the wire). The same cases run
 * against the recorded answers (apps/erp/test/contract/wire.contract.fixtures.test.ts: the cases agree with Odoo) and
 * against the embedded ERP (wire.contract.embedded.test.ts: the embedded ERP agrees with Odoo);
 * where Odoo's answer is deterministic (`exact`), the embedded ERP must send the same bytes.
 */
import { readdir, readFile } from 'node:fs/promises';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { OdooFixture } from './odoo-fixture.server.js';
import { ODOO15_FIXTURES_DIR } from './odoo-fixture.server.js';
import { xmlrpcCall } from './xmlrpc-wire.js';

export const WIRE_FIXTURES_DIR = `${ODOO15_FIXTURES_DIR}wire/`;

/** Where the cases are sent, and the records they expect (created by the subject's setup). */
export interface WireSubject {
  url: string;
  db: string;
  login: string;
  /** An API key (RPC) of `login`; `password` is its password (web logins refuse keys). */
  key: string;
  password: string;
  uid: number;
  /** A crm.lead "Wire contract lead" (wire@example.com, no partner, user uid) tagged `tag`; a draft purchase order. */
  ids: { lead: number; tag: number; po: number };
  teardown(): Promise<void>;
}

export async function loadWireFixtures(): Promise<Map<string, OdooFixture>> {
  const out = new Map<string, OdooFixture>();
  for (const f of (await readdir(WIRE_FIXTURES_DIR)).filter((n) => n.endsWith('.json')).sort()) {
    out.set(f.replace(/\.json$/, ''), JSON.parse(await readFile(`${WIRE_FIXTURES_DIR}${f}`, 'utf8')) as OdooFixture);
  }
  return out;
}

const WRONG_KEY = '0'.repeat(40);
const withoutDebug = (body: any) =>
  body?.error ? { ...body, error: { ...body.error, data: { ...body.error.data, debug: undefined } } } : body;

export function defineWireContract(name: string, setup: () => Promise<WireSubject>): void {
  describe(`Odoo 15 wire contract (XML-RPC, web session): ${name}`, () => {
    let s: WireSubject;
    let fx: Map<string, OdooFixture>;
    beforeAll(async () => {
      fx = await loadWireFixtures();
      s = await setup();
    }, 180_000);
    afterAll(async () => s?.teardown());

    const recorded = (n: string) => {
      const f = fx.get(n);
      if (!f) throw new Error(`no wire fixture ${n}`);
      return f;
    };
    const xml = async (fixture: string, path: string, method: string, params: unknown[]) => {
      const r = await xmlrpcCall(`${s.url}${path}`, method, params);
      expect(r.status).toBe(200);
      expect(r.contentType).toBe('text/xml; charset=utf-8');
      const f = recorded(fixture);
      if (f.exact) expect(r.text).toBe(f.response.text);
      return r;
    };
    const kw = (
      fixture: string,
      secret: string,
      model: string,
      method: string,
      args: unknown[],
      kwargs?: Record<string, unknown>,
      path = '/xmlrpc/2/object',
    ) => xml(fixture, path, 'execute_kw', [s.db, s.uid, secret, model, method, args, ...(kwargs ? [kwargs] : [])]);

    describe('XML-RPC', () => {
      it('common.version', async () => {
        expect((await xml('xmlrpc-common-version', '/xmlrpc/2/common', 'version', [])).value).toMatchObject({
          server_serie: '15.0',
          protocol_version: 1,
        });
      });
      it('common.authenticate: the uid, or false for a wrong secret', async () => {
        expect(
          (await xml('xmlrpc-common-authenticate', '/xmlrpc/2/common', 'authenticate', [s.db, s.login, s.key, {}]))
            .value,
        ).toBe(s.uid);
        expect(
          (
            await xml('xmlrpc-common-authenticate-false', '/xmlrpc/2/common', 'authenticate', [
              s.db,
              s.login,
              WRONG_KEY,
              {},
            ])
          ).value,
        ).toBe(false);
      });
      it('search_read: many2one [id, name], false for empty, x2many ids', async () => {
        const r = await kw(
          'xmlrpc-object-search-read-crm-lead',
          s.key,
          'crm.lead',
          'search_read',
          [[['id', '=', s.ids.lead]]],
          { fields: ['name', 'email_from', 'partner_id', 'user_id', 'tag_ids'] },
        );
        expect(r.value).toEqual([
          {
            id: s.ids.lead,
            name: 'Wire contract lead',
            email_from: 'wire@example.com',
            partner_id: false,
            user_id: [s.uid, expect.any(String)],
            tag_ids: [s.ids.tag],
          },
        ]);
      });
      it('faults: AccessDenied 3, UserError 2, MissingError 2, ValidationError 2, AccessError 4', async () => {
        expect((await kw('xmlrpc-fault-access-denied', WRONG_KEY, 'res.partner', 'search_count', [[]])).fault).toEqual({
          faultCode: 3,
          faultString: 'Access Denied',
        });
        expect((await kw('xmlrpc-fault-user-error', s.key, 'x.nope', 'search', [[]])).fault).toEqual({
          faultCode: 2,
          faultString: "Object x.nope doesn't exist",
        });
        expect(
          (await kw('xmlrpc-fault-missing-error', s.key, 'res.partner', 'write', [[999999], { name: 'x' }])).fault,
        ).toMatchObject({
          faultCode: 2,
          faultString: expect.stringMatching(/^Record does not exist or has been deleted\./),
        });
        expect(
          (
            await kw('xmlrpc-fault-validation-error', s.key, 'crm.lead', 'create', [
              { email_from: 'noname@example.com' },
            ])
          ).fault,
        ).toMatchObject({ faultCode: 2, faultString: expect.stringContaining('a mandatory field is not set') });
        expect(
          (await kw('xmlrpc-fault-access-error-private', s.key, 'res.partner', '_compute_display_name', [[]])).fault,
        ).toEqual({
          faultCode: 4,
          faultString: 'Private methods (such as _compute_display_name) cannot be called remotely.',
        });
      });
      it('a None result cannot be marshalled (allow_none=False): fault 1 with the traceback', async () => {
        const r = await kw('xmlrpc-fault-none-result', s.key, 'purchase.order', 'button_cancel', [[s.ids.po]]);
        expect(r.fault).toEqual({
          faultCode: 1,
          faultString: expect.stringMatching(
            /^Traceback \(most recent call last\):\n[\s\S]*\nTypeError: cannot marshal None unless allow_none is enabled\n$/,
          ),
        });
      });
      it('legacy /xmlrpc/<service>: string fault codes', async () => {
        expect(
          (
            await kw(
              'xmlrpc-legacy-fault-access-denied',
              WRONG_KEY,
              'res.partner',
              'search_count',
              [[]],
              undefined,
              '/xmlrpc/object',
            )
          ).fault,
        ).toEqual({ faultCode: 'AccessDenied', faultString: 'Access Denied' });
        expect(
          (await kw('xmlrpc-legacy-fault-user-error', s.key, 'x.nope', 'search', [[]], undefined, '/xmlrpc/object'))
            .fault,
        ).toEqual({ faultCode: "warning -- UserError\n\nObject x.nope doesn't exist", faultString: '' });
      });
    });

    describe('web session', () => {
      const post = async (path: string, params: Record<string, unknown> | undefined, sessionId?: string) => {
        const res = await fetch(`${s.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(sessionId ? { cookie: `session_id=${sessionId}` } : {}) },
          body: JSON.stringify({ jsonrpc: '2.0', method: 'call', params: params ?? {}, id: 1 }),
        });
        return { status: res.status, setCookie: res.headers.get('set-cookie'), body: (await res.json()) as any };
      };
      const errorOf = (fixture: string) => withoutDebug(recorded(fixture).response.body);
      let sid: string;

      it('authenticate: session_info (uid, user_context, db) and an HttpOnly session_id cookie', async () => {
        const r = await post('/web/session/authenticate', { db: s.db, login: s.login, password: s.password });
        expect(r.status).toBe(200);
        expect(r.setCookie).toMatch(/^session_id=[0-9a-f]{40};.*HttpOnly/);
        expect(r.setCookie).toMatch(/Path=\//);
        sid = /^session_id=([0-9a-f]{40})/.exec(r.setCookie!)![1]!;
        const info = r.body.result;
        expect(info).toMatchObject({
          uid: s.uid,
          db: s.db,
          username: s.login,
          user_context: { lang: 'en_US', uid: s.uid },
          server_version_info: [15, 0, 0, 'final', 0, ''],
        });
        expect(info.user_companies.allowed_companies[String(info.user_companies.current_company)]).toMatchObject({
          id: info.company_id,
          name: expect.any(String),
        });
        const recordedInfo = (recorded('web-session-authenticate').response.body as any).result;
        for (const key of [
          'uid',
          'is_system',
          'is_admin',
          'user_context',
          'db',
          'server_version',
          'name',
          'username',
          'company_id',
          'partner_id',
          'user_companies',
          'web.base.url',
          'max_file_upload_size',
        ]) {
          expect(info, `session_info has ${key}`).toHaveProperty([key]);
          expect(typeof info[key], key).toBe(typeof recordedInfo[key]);
        }
      });
      it('authenticate with a wrong password: AccessDenied, no cookie', async () => {
        const r = await post('/web/session/authenticate', { db: s.db, login: s.login, password: 'wrong-password' });
        expect(r.setCookie).toBeNull();
        expect(withoutDebug(r.body)).toEqual(errorOf('web-session-authenticate-wrong-password'));
      });
      it('call_kw with the cookie; without one, code 100 "Odoo Session Expired"', async () => {
        const call = { model: 'res.partner', method: 'search_count', args: [[]], kwargs: {} };
        const r = await post('/web/dataset/call_kw', call, sid);
        expect(Number.isInteger(r.body.result) && r.body.result > 0).toBe(true);
        expect(withoutDebug((await post('/web/dataset/call_kw', call)).body)).toEqual(
          errorOf('web-call-kw-no-session'),
        );
      });
      it('search_read: {length, records}', async () => {
        const r = await post(
          '/web/dataset/search_read',
          { model: 'crm.lead', domain: [['id', '=', s.ids.lead]], fields: ['name'], limit: 80 },
          sid,
        );
        expect(r.body.result).toEqual({ length: 1, records: [{ id: s.ids.lead, name: 'Wire contract lead' }] });
      });
      it('database list and version info', async () => {
        expect((await post('/web/database/list', {})).body.result).toContain(s.db);
        expect((await post('/web/webclient/version_info', {})).body).toEqual(
          recorded('web-version-info').response.body,
        );
      });
      it('unknown routes: JSON-RPC error code 404, or the 404 page for a browser', async () => {
        const r = await post('/web/dataset/no_such_route', {});
        expect(r.status).toBe(404);
        expect(withoutDebug(r.body)).toEqual({ ...errorOf('web-unknown-route-json'), id: 1 });
        const page = await fetch(`${s.url}/web/no-such-page`, { headers: { accept: 'text/html' } });
        expect(page.status).toBe(404);
        expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(await page.text()).toBe(recorded('web-unknown-route-page').response.text);
      });
    });
  });
}
