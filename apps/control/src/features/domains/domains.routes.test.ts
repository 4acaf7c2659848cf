/**
 * The domains API and by-domain on PGlite and PostgreSQL (TEST_DATABASE_URL): names normalised and
 * checked against the reserved ones, unique across tenants, one primary per tenant, every change
 * audited, a retry restarting a failed domain, and another tenant seeing none of it.
 */
import { ensureSubdomain } from '@platform/tenancy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ControlKit, startControlKit } from '../../testing/control-test-kit.js';

type T = Awaited<ReturnType<ControlKit['tenant']>>;
let kit: ControlKit;
let a: T;
let b: T;

beforeAll(async () => {
  kit = await startControlKit({ TENANTS_HOST: 'tenants.test' });
  a = await kit.tenant('dom-a', 'starter');
  b = await kit.tenant('dom-b', 'starter');
  for (const x of [a, b]) await kit.t.db.transaction((tx) => ensureSubdomain(tx, x.id, x.slug, 'tenants.test'));
});
afterAll(async () => kit?.close());

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token?: string, payload?: object) =>
  kit.app.inject({
    method,
    url,
    ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
    ...(payload ? { payload } : {}),
  });
const add = (t: T, domain: string, is_primary?: boolean) =>
  call('POST', `/api/tenants/${t.id}/domains`, t.token, {
    domain,
    ...(is_primary === undefined ? {} : { is_primary }),
  });
const list = async (t: T) => (await call('GET', `/api/tenants/${t.id}/domains`, t.token)).json().items as any[];

describe('adding a custom domain', () => {
  it('stores it normalised and pending, with the CNAME to set and the deadline, and audits it', async () => {
    const r = await add(a, ' Shop.Dom-A.Example. ');
    expect(r.statusCode).toBe(201);
    const d = r.json();
    expect(d).toMatchObject({
      domain: 'shop.dom-a.example',
      domain_type: 'custom',
      is_primary: false,
      ssl_status: 'pending',
      state: 'awaiting_dns',
      cname_target: 'tenants.test',
      cname_seen_at: null,
      failure_reason: null,
    });
    expect(new Date(d.verify_deadline_at).getTime() - new Date(d.created_at).getTime()).toBe(72 * 3_600_000);
    const audit = await kit.t.db.query<{ action: string; actor_id: string; target_id: string }>(
      `SELECT action, actor_id, target_id FROM audit_log WHERE tenant_id = $1 AND action = 'domain.add'`,
      [a.id],
    );
    expect(audit.rows).toEqual([{ action: 'domain.add', actor_id: a.owner.userId, target_id: d.id }]);
  });

  it('stores an internationalised name in its ASCII form', async () => {
    const r = await add(a, 'Bücher.Dom-A.example');
    expect(r.json().domain).toBe('xn--bcher-kva.dom-a.example');
    // The same name typed in ASCII is the same domain.
    expect((await add(a, 'xn--bcher-kva.dom-a.example')).statusCode).toBe(200);
  });

  it("answers the same tenant's repeat with its existing domain, and refuses it to another tenant", async () => {
    const again = await add(a, 'SHOP.dom-a.example');
    expect(again.statusCode).toBe(200);
    const taken = await add(b, 'shop.dom-a.example.');
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'DOMAIN_TAKEN' });
    expect((await list(b)).map((d) => d.domain)).toEqual(['dom-b.tenants.test']);
  });

  it('refuses malformed and reserved names, naming the rule, and writes nothing', async () => {
    const cases: [string, string][] = [
      ['https://shop.example.com/', 'format'],
      ['shop..example.com', 'format'],
      ['-shop.example.com', 'format'],
      ['localhost', 'single_label'],
      ['10.0.0.1', 'ip_address'],
      ['tenants.test', 'tenants_host'],
      ['dom-b.tenants.test', 'tenants_host'],
      ['www.example.test', 'reserved'],
      ['api.erp.example.test', 'reserved'],
      ['printer.localhost', 'reserved'],
      [`${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`, 'length'],
    ];
    const before = (await list(a)).length;
    for (const [domain, rule] of cases) {
      const r = await add(a, domain);
      expect(r.statusCode, domain).toBe(422);
      expect(r.json(), domain).toMatchObject({ code: 'DOMAIN_INVALID', errors: [{ field: 'domain', rule }] });
    }
    const missing = await call('POST', `/api/tenants/${a.id}/domains`, a.token, { is_primary: 'yes' });
    expect(missing.statusCode).toBe(422);
    expect(
      missing
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['domain', 'is_primary']);
    expect((await list(a)).length).toBe(before);
  });
});

describe('the primary domain', () => {
  it('is one per tenant: a new primary unsets the old, removing it hands primary back to the subdomain', async () => {
    expect((await list(a)).filter((d) => d.is_primary).map((d) => d.domain)).toEqual(['dom-a.tenants.test']);
    const one = (await add(a, 'one.dom-a.example', true)).json();
    const two = (await add(a, 'two.dom-a.example', true)).json();
    expect((await list(a)).filter((d) => d.is_primary).map((d) => d.id)).toEqual([two.id]);
    expect((await call('DELETE', `/api/tenants/${a.id}/domains/${two.id}`, a.token)).statusCode).toBe(204);
    expect((await list(a)).filter((d) => d.is_primary).map((d) => d.domain)).toEqual(['dom-a.tenants.test']);
    await call('DELETE', `/api/tenants/${a.id}/domains/${one.id}`, a.token);
  });

  it('stays one when two requests set different primaries at once', async () => {
    await Promise.all([add(b, 'p1.dom-b.example', true), add(b, 'p2.dom-b.example', true)]);
    expect((await list(b)).filter((d) => d.is_primary)).toHaveLength(1);
  });
});

describe('removing and retrying', () => {
  it('removes a custom domain once (then 404) and never the platform subdomain', async () => {
    const d = (await add(a, 'gone.dom-a.example')).json();
    expect((await call('DELETE', `/api/tenants/${a.id}/domains/${d.id}`, a.token)).statusCode).toBe(204);
    expect((await call('DELETE', `/api/tenants/${a.id}/domains/${d.id}`, a.token)).statusCode).toBe(404);
    const sub = (await list(a)).find((x) => x.domain_type === 'subdomain');
    const r = await call('DELETE', `/api/tenants/${a.id}/domains/${sub.id}`, a.token);
    expect(r.statusCode).toBe(422);
    expect(r.json()).toMatchObject({ code: 'DOMAIN_INVALID', errors: [{ rule: 'platform_subdomain' }] });
  });

  it('a retry puts a failed domain back to pending with a new deadline and shows the tenant why it failed before', async () => {
    const d = (await add(a, 'late.dom-a.example')).json();
    await kit.t.db.query(
      `UPDATE tenant_domains SET ssl_status = 'failed', failure_reason = 'no CNAME after 72 hours',
              verify_started_at = now() - interval '80 hours' WHERE id = $1`,
      [d.id],
    );
    const failed = (await list(a)).find((x) => x.id === d.id);
    expect(failed).toMatchObject({
      state: 'failed',
      failure_reason: 'no CNAME after 72 hours',
      verify_deadline_at: null,
    });
    const r = await call('POST', `/api/tenants/${a.id}/domains/${d.id}/check`, a.token);
    expect(r.statusCode).toBe(202);
    expect(r.json()).toMatchObject({ ssl_status: 'pending', state: 'awaiting_dns', failure_reason: null });
    expect(new Date(r.json().verify_deadline_at).getTime()).toBeGreaterThan(Date.now() + 71 * 3_600_000);
  });
});

describe('another tenant', () => {
  it("gets 404 for A's domains on every endpoint and changes nothing", async () => {
    const d = (await add(a, 'secret.dom-a.example')).json();
    const urls: ['GET' | 'POST' | 'DELETE', string][] = [
      ['GET', `/api/tenants/${a.id}/domains`],
      ['POST', `/api/tenants/${a.id}/domains`],
      ['DELETE', `/api/tenants/${a.id}/domains/${d.id}`],
      ['POST', `/api/tenants/${a.id}/domains/${d.id}/check`],
      ['DELETE', `/api/tenants/${b.id}/domains/${d.id}`],
      ['POST', `/api/tenants/${b.id}/domains/${d.id}/check`],
    ];
    for (const [method, url] of urls) {
      const r = await call(method, url, b.token, method === 'POST' ? { domain: 'x.dom-b.example' } : undefined);
      expect(r.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await list(a)).map((x) => x.id)).toContain(d.id);
  });

  it('office staff and anonymous callers are refused', async () => {
    const office = await kit.member(a.id, 'office');
    expect((await call('GET', `/api/tenants/${a.id}/domains`, office.token)).statusCode).toBe(403);
    expect((await call('GET', `/api/tenants/${a.id}/domains`)).statusCode).toBe(401);
  });
});

describe('GET /api/tenants/by-domain', () => {
  it('names the tenant of a platform subdomain with x-tenant-* headers', async () => {
    const r = await call('GET', '/api/tenants/by-domain?domain=DOM-A.tenants.test:443');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      tenant_id: a.id,
      slug: 'dom-a',
      name: 'Tenant dom-a',
      domain: 'dom-a.tenants.test',
      domain_type: 'subdomain',
    });
    expect(r.headers['x-tenant-id']).toBe(a.id);
    expect(r.headers['x-tenant-slug']).toBe('dom-a');
  });

  it('answers a custom domain only once it is active, and TENANT_NOT_FOUND otherwise', async () => {
    const q = '/api/tenants/by-domain?domain=shop.dom-a.example';
    const pending = await call('GET', q);
    expect(pending.statusCode).toBe(404);
    expect(pending.json()).toMatchObject({ code: 'TENANT_NOT_FOUND' });
    await kit.t.db.query(`UPDATE tenant_domains SET ssl_status = 'active' WHERE domain = 'shop.dom-a.example'`);
    let r = pending;
    for (let i = 0; i < 100 && r.statusCode === 404; i++) {
      await new Promise((res) => setTimeout(res, 20));
      r = await call('GET', q);
    }
    expect(r.json()).toMatchObject({ tenant_id: a.id, domain_type: 'custom' });
    expect((await call('GET', '/api/tenants/by-domain?domain=nobody.example.org')).statusCode).toBe(404);
    expect((await call('GET', '/api/tenants/by-domain')).json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
