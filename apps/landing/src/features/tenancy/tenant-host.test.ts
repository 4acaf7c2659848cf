/**
 * The landing host serving many tenants: a tenant's subdomain or active custom domain takes that
 * tenant's forms (its submission, its `SITE:` name, its helpdesk team), the tenant travels as
 * x-tenant-* headers, an unknown host gets a not-found page, and the host's own names keep serving the
 * single-company site. PGlite and PostgreSQL (TEST_DATABASE_URL).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestLanding, type TestLanding } from '../../../test/support/landing-harness.js';

let h: TestLanding;
let app: FastifyInstance;
let alpha: string;

beforeAll(async () => {
  h = await startTestLanding({ TENANTS_HOST: 'tenants.test' });
  app = h.landing.app;
  alpha = (
    await h.db.query<{ id: string }>(
      `INSERT INTO tenants (slug, name, site_name, helpdesk_team_id) VALUES ('alpha', 'Alpha Ltd', 'Alpha Shades', 7) RETURNING id`,
    )
  ).rows[0]!.id;
  await h.db.query(
    `INSERT INTO tenant_domains (tenant_id, domain, domain_type, ssl_status) VALUES ($1, 'www.alpha-shades.example', 'custom', 'pending')`,
    [alpha],
  );
});
afterAll(() => h?.close());

const post = async (host: string, path: string, body: object, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url: path,
    headers: { host, 'content-type': 'application/json', ...headers },
    payload: body,
  });

const estimate = async () => ({ name: 'Ann Lee', phone: '3035550100', captcha_token: await h.token() });
const ticket = async () => ({
  name: 'Jim',
  email: 'jim@example.com',
  subject: 'Cord snapped',
  message: 'Kitchen blind cord.',
  captcha_token: await h.token('helpdesk'),
});

async function outboxOf(id: string) {
  return (
    await h.db.query<{ tenant_id: string; payload: Record<string, any> }>(
      'SELECT tenant_id, payload FROM outbox WHERE aggregate_id = $1',
      [id],
    )
  ).rows[0]!;
}

describe("a tenant's site", () => {
  it("takes an estimate on the tenant's subdomain as that tenant's lead, tagged with its site name", async () => {
    const r = await post('Alpha.Tenants.Test:8001', '/api/estimate', await estimate());
    expect(r.statusCode).toBe(201);
    expect(r.headers['x-tenant-id']).toBe(alpha);
    expect(r.headers['x-tenant-slug']).toBe('alpha');
    const id = r.json().id as string;
    const sub = await h.db.query<{ tenant_id: string }>('SELECT tenant_id FROM submissions WHERE id = $1', [id]);
    expect(sub.rows[0]!.tenant_id).toBe(alpha);
    const out = await outboxOf(id);
    expect(out.tenant_id).toBe(alpha);
    expect(out.payload).toMatchObject({ tenantId: alpha, siteName: 'Alpha Shades' });
    expect(out.payload.tags).toContain('SITE: ALPHA SHADES');
  });

  it("sends a helpdesk request to the tenant's own helpdesk team", async () => {
    const r = await post('alpha.tenants.test', '/api/helpdesk', await ticket());
    expect(r.statusCode).toBe(201);
    const out = await outboxOf(r.json().id);
    expect(out.payload).toMatchObject({ tenantId: alpha, siteName: 'Alpha Shades', helpdeskTeamId: 7 });
  });

  it('does not let a visitor pick the tenant with a forged x-tenant-id header', async () => {
    const other = (await h.db.query<{ id: string }>('SELECT id FROM tenants WHERE is_default')).rows[0]!.id;
    const r = await post('alpha.tenants.test', '/api/helpdesk', await ticket(), { 'x-tenant-id': other });
    expect(r.statusCode).toBe(201);
    expect((await outboxOf(r.json().id)).tenant_id).toBe(alpha);
  });

  it('serves a custom domain only once its certificate made it active', async () => {
    const before = await post('www.alpha-shades.example', '/api/helpdesk', await ticket());
    expect(before.statusCode).toBe(404);
    await h.db.query(`UPDATE tenant_domains SET ssl_status = 'active' WHERE domain = 'www.alpha-shades.example'`);
    let r = before;
    for (let i = 0; i < 100 && r.statusCode === 404; i++) {
      await new Promise((res) => setTimeout(res, 20));
      r = await post('www.alpha-shades.example', '/api/helpdesk', await ticket());
    }
    expect(r.statusCode).toBe(201);
    expect((await outboxOf(r.json().id)).tenant_id).toBe(alpha);
  });
});

describe('an unknown host', () => {
  it('gets an HTML not-found page in a browser and a problem for the API, and nothing is written', async () => {
    const before = await h.count('submissions');
    const page = await app.inject({ url: '/', headers: { host: 'nobody.example.org', accept: 'text/html,*/*' } });
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('Site not found');
    const api = await post('nobody.example.org', '/api/estimate', await estimate());
    expect(api.statusCode).toBe(404);
    expect(api.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(api.json()).toMatchObject({ code: 'TENANT_NOT_FOUND', status: 404 });
    expect(api.headers['x-tenant-id']).toBeUndefined();
    // A subdomain of no tenant is unknown too.
    expect((await post('nosuch.tenants.test', '/api/helpdesk', await ticket())).statusCode).toBe(404);
    expect(await h.count('submissions')).toBe(before);
  });

  it('still answers the health check (the proxy and monitors call it by any name)', async () => {
    expect((await app.inject({ url: '/health', headers: { host: 'nobody.example.org' } })).statusCode).toBe(200);
  });
});

describe("the landing host's own names", () => {
  it('serve the single-company site as before: the default tenant, named by SITE_NAME', async () => {
    const r = await post('localhost:8001', '/api/estimate', await estimate());
    expect(r.statusCode).toBe(201);
    const def = (await h.db.query<{ id: string }>('SELECT id FROM tenants WHERE is_default')).rows[0]!.id;
    expect(r.headers['x-tenant-id']).toBe(def);
    expect((await outboxOf(r.json().id)).payload.tags).toContain('SITE: ACME BLINDS');
    expect((await app.inject({ url: '/health', headers: { host: 'www.example.test' } })).statusCode).toBe(200);
  });
});
