/**
 * The console's REST API keys: gated by the plan's api_access (naming the cheapest plan), owners and
 * admins only, the key answered once and stored as a hash, bad input refused naming the field, and
 * another tenant neither seeing nor revoking a key. That a key made here works on the ERP host's REST
 * API is apps/platform/src/console-api-keys.test.ts's (it composes both hosts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ControlKit, startControlKit } from '../../testing/control-test-kit.js';

type T = Awaited<ReturnType<ControlKit['tenant']>>;
let kit: ControlKit;
let a: T;
let b: T;
let free: T;

beforeAll(async () => {
  kit = await startControlKit();
  a = await kit.tenant('keys-a', 'professional');
  b = await kit.tenant('keys-b', 'professional');
  free = await kit.tenant('keys-free', 'free');
});
afterAll(async () => kit?.close());

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string, payload?: object) =>
  kit.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
const create = (t: T, body: object = { description: 'Zapier' }) =>
  call('POST', `/api/tenants/${t.id}/api-keys`, t.token, body);

describe('API keys from the console', () => {
  it('answers the key once, with the default scopes; the list and the database never show it again', async () => {
    const made = await create(a, { description: 'Accounting sync' });
    expect(made.statusCode).toBe(201);
    const body = made.json();
    expect(body.key).toMatch(/^erpk_[A-Za-z0-9_-]{8}_[A-Za-z0-9_-]{43}$/);
    expect(body).toMatchObject({ description: 'Accounting sync', revoked_at: null, last_used_at: null });
    expect(body.scopes).toEqual(expect.arrayContaining(['read:res.partner', 'write:crm.lead']));
    const list = await call('GET', `/api/tenants/${a.id}/api-keys`, a.token);
    expect(list.statusCode).toBe(200);
    expect(list.json().items[0]).toMatchObject({ id: body.id, prefix: body.prefix, description: 'Accounting sync' });
    expect(list.body).not.toContain(body.key);
    const dump = JSON.stringify((await kit.t.db.query('SELECT * FROM restapi_keys')).rows);
    expect(dump).not.toContain(body.key);
    const audit = await call('GET', '/api/audit?action=api_key.create', a.token);
    expect(audit.json().items[0]).toMatchObject({ target: { type: 'api_key', id: String(body.id) } });
    expect(audit.body).not.toContain(body.key);
  });

  it('takes chosen scopes and refuses bad input naming the field, never a 500', async () => {
    const own = await create(a, { description: 'Read only', scopes: ['read:res.partner'] });
    expect(own.json().scopes).toEqual(['read:res.partner']);
    for (const [payload, field] of [
      [{ description: '' }, 'description'],
      [{ description: 'x'.repeat(201) }, 'description'],
      [{ description: 'a\u0000b' }, 'description'],
      [{ description: 'ok', scopes: ['write:res.users'] }, 'scopes.0'],
      [{ description: 'ok', scopes: [] }, 'scopes'],
      [{ description: 'ok', scopes: 'read:res.partner' }, 'scopes'],
      [{ description: 'ok', login: 'someone' }, 'login'],
    ] as const) {
      const r = await create(a, payload);
      expect(r.statusCode, JSON.stringify(payload)).toBe(422);
      expect(r.json().errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect((await call('DELETE', `/api/tenants/${a.id}/api-keys/abc`, a.token)).statusCode).toBe(422);
  });

  it('refuses a plan without API access, naming the cheapest plan that has it', async () => {
    for (const r of [await create(free), await call('GET', `/api/tenants/${free.id}/api-keys`, free.token)]) {
      expect(r.statusCode).toBe(403);
      expect(r.json()).toMatchObject({ code: 'PLAN_FEATURE_MISSING', required_plan: expect.any(String) });
    }
    expect((await kit.t.db.query('SELECT 1 FROM restapi_keys WHERE tenant_id = $1', [free.id])).rowCount).toBe(0);
  });

  it('owners and admins only', async () => {
    const admin = await kit.member(a.id, 'admin');
    expect((await call('GET', `/api/tenants/${a.id}/api-keys`, admin.token)).statusCode).toBe(200);
    const office = await kit.member(a.id, 'office');
    expect((await call('GET', `/api/tenants/${a.id}/api-keys`, office.token)).statusCode).toBe(403);
  });

  it('another tenant neither lists nor revokes a key; revoking is once, and listed as revoked', async () => {
    const { id } = (await create(a, { description: 'Shared?' })).json();
    // Another tenant's id in the path is answered as if it did not exist.
    expect((await call('GET', `/api/tenants/${a.id}/api-keys`, b.token)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/tenants/${a.id}/api-keys/${id}`, b.token)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/tenants/${b.id}/api-keys/${id}`, b.token)).statusCode).toBe(404);
    expect((await call('GET', `/api/tenants/${b.id}/api-keys`, b.token)).json().items).toEqual([]);
    expect((await call('DELETE', `/api/tenants/${a.id}/api-keys/${id}`, a.token)).statusCode).toBe(204);
    expect((await call('DELETE', `/api/tenants/${a.id}/api-keys/${id}`, a.token)).statusCode).toBe(404);
    const listed = (await call('GET', `/api/tenants/${a.id}/api-keys`, a.token)).json().items;
    expect(listed.find((k: { id: number }) => k.id === id).revoked_at).not.toBeNull();
  });
});
