/**
 * The tenants API: only the operator creates, suspends, resumes and deletes; a member reads its own
 * tenant and settings, owners and admins change settings; another tenant's id is 404 everywhere.
 * Suspending refuses the tenant's tokens and pauses its outbox; deleting releases its domains and
 * keeps its people and data; purge drops the ERP database after the retention days.
 */
import { withTenant } from '@platform/db';
import { claimBatch, enqueue } from '@platform/outbox';
import { ensureSubdomain, findTenantByDomain } from '@platform/tenancy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTenantsKit, type TenantsKit } from './tenants.test-kit.js';

let kit: TenantsKit;
let a: { id: string; token: string };
let b: { id: string; token: string };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  kit = await startTenantsKit();
  a = await kit.tenant('alpha', 'starter');
  b = await kit.tenant('beta', 'free');
}, 120_000);
afterAll(async () => kit?.close());

describe('who may call the tenants API', () => {
  it('refuses tenant creation and lifecycle calls without the operator token (OPERATOR_REQUIRED)', async () => {
    for (const [method, url] of [
      ['POST', '/api/tenants'],
      ['POST', `/api/tenants/${a.id}/suspend`],
      ['POST', `/api/tenants/${a.id}/resume`],
      ['DELETE', `/api/tenants/${a.id}`],
    ] as const) {
      for (const headers of [{}, bearer(a.token), { authorization: 'Bearer not-the-operator-token-at-all' }]) {
        const r = await kit.app.inject({ method, url, headers, payload: {} });
        expect(r.statusCode, `${method} ${url}`).toBe(401);
        expect(r.json().code).toBe('OPERATOR_REQUIRED');
      }
    }
  });

  it("answers 404 to B's user for every endpoint naming A's id", async () => {
    for (const [method, url, payload] of [
      ['GET', `/api/tenants/${a.id}`, undefined],
      ['GET', `/api/tenants/${a.id}/settings`, undefined],
      ['PUT', `/api/tenants/${a.id}/settings`, { company_name: 'Hijacked' }],
    ] as const) {
      const r = await kit.app.inject({ method, url, headers: bearer(b.token), ...(payload ? { payload } : {}) });
      expect(r.statusCode, `${method} ${url}`).toBe(404);
      expect(r.json().code).toBe('NOT_FOUND');
    }
    const own = await kit.app.inject({ url: `/api/tenants/${a.id}/settings`, headers: bearer(a.token) });
    expect(own.json().company_name).toBeNull();
  });

  it('answers 404 to the operator for a tenant that does not exist', async () => {
    const r = await kit.app.inject({
      method: 'POST',
      url: '/api/tenants/6f1c0c0e-0000-4000-8000-000000000000/suspend',
      headers: kit.operator,
    });
    expect(r.statusCode).toBe(404);
  });

  it('shows a member its tenant as the contract lists it', async () => {
    const office = await kit.member(a.id, 'technician');
    const r = await kit.app.inject({ url: `/api/tenants/${a.id}`, headers: bearer(office.token) });
    expect(r.json()).toEqual({
      id: a.id,
      slug: 'alpha',
      name: 'Tenant alpha',
      status: 'active',
      plan: 'starter',
      erp_db: null,
      site_name: null,
      helpdesk_team_id: null,
    });
  });
});

describe('tenant settings', () => {
  const put = (token: string, payload: object, id = a.id) =>
    kit.app.inject({ method: 'PUT', url: `/api/tenants/${id}/settings`, headers: bearer(token), payload });

  it('starts with the features on and everything else empty', async () => {
    const r = await kit.app.inject({ url: `/api/tenants/${b.id}/settings`, headers: bearer(b.token) });
    expect(r.json()).toMatchObject({
      helpdesk_enabled: true,
      portal_enabled: true,
      company_name: null,
      logo_url: null,
    });
  });

  it('refuses a colour that is not #RRGGBB and a name over 100 characters, naming the field', async () => {
    const bad = await put(a.token, { primary_color: 'red', company_name: 'x'.repeat(101) });
    expect(bad.statusCode).toBe(422);
    const fields = bad.json().errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['primary_color', 'company_name']));
  });

  it('needs custom_branding for a logo or colours: a Free tenant is refused, a Starter one may', async () => {
    const free = await put(b.token, { primary_color: '#112233' }, b.id);
    expect(free.statusCode).toBe(403);
    expect(free.json()).toMatchObject({ code: 'PLAN_FEATURE_MISSING', required_plan: 'starter' });
    expect((await put(b.token, { company_name: 'Beta Blinds', helpdesk_enabled: false }, b.id)).statusCode).toBe(200);
    const ok = await put(a.token, { primary_color: '#112233', logo_url: 'https://cdn.alpha.test/logo.png' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ primary_color: '#112233', logo_url: 'https://cdn.alpha.test/logo.png' });
  });

  it('lets owners and admins change settings, not office staff, and audits each change', async () => {
    const office = await kit.member(a.id, 'office');
    expect((await put(office.token, { phone: '555-0100' })).json().code).toBe('ROLE_FORBIDDEN');
    const admin = await kit.member(a.id, 'admin');
    expect((await put(admin.token, { phone: '555-0100', meta_title: 'Alpha' })).json().phone).toBe('555-0100');
    const audit = await withTenant(kit.t.db, a.id, (tx) =>
      tx.query<{ detail: { fields: string[] } }>(
        `SELECT detail FROM audit_log WHERE action = 'tenant.settings.update'`,
      ),
    );
    expect(audit.rows.map((r) => r.detail.fields)).toContainEqual(['meta_title', 'phone']);
  });
});

describe('suspending, resuming and deleting', () => {
  const op = (method: 'POST' | 'DELETE', url: string) => kit.app.inject({ method, url, headers: kit.operator });

  it("refuses a suspended tenant's tokens, holds its outbox, darkens its host, and resumes all three", async () => {
    const c = await kit.tenant('charlie', 'free');
    await ensureSubdomain(kit.t.db, c.id, 'charlie', 'tenants.localhost');
    await enqueue(kit.t.db, { tenantId: c.id, topic: 'tenants.test' as never, payload: {} as never });
    const s = await op('POST', `/api/tenants/${c.id}/suspend`);
    expect(s.json()).toMatchObject({ status: 'suspended' });
    const refused = await kit.app.inject({ url: `/api/tenants/${c.id}`, headers: bearer(c.token) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('TENANT_SUSPENDED');
    expect(await claimBatch(kit.t.db, 'w', 10, ['tenants.test'])).toEqual([]);
    expect(await findTenantByDomain(kit.t.db, 'charlie.tenants.localhost')).toBeUndefined();
    expect((await op('POST', `/api/tenants/${c.id}/resume`)).json()).toMatchObject({ status: 'active' });
    expect((await kit.app.inject({ url: `/api/tenants/${c.id}`, headers: bearer(c.token) })).statusCode).toBe(200);
    expect(await claimBatch(kit.t.db, 'w', 10, ['tenants.test'])).toHaveLength(1);
    expect(await findTenantByDomain(kit.t.db, 'charlie.tenants.localhost')).toMatchObject({ id: c.id });
  });

  it('deletes softly: domains released, people kept, no resume, and the ERP database purged only later', async () => {
    const created = await kit.app.inject({
      method: 'POST',
      url: '/api/tenants',
      headers: kit.operator,
      payload: {
        slug: 'delta',
        name: 'Delta',
        plan: 'free',
        owner_email: 'o@delta.test',
        owner_password: 'correct horse battery',
      },
    });
    const id = created.json<{ id: string }>().id;
    const gone = await op('DELETE', `/api/tenants/${id}`);
    expect(gone.json()).toMatchObject({ status: 'deleted' });
    expect((await kit.t.db.query('SELECT 1 FROM tenant_domains WHERE tenant_id = $1', [id])).rows).toHaveLength(0);
    expect((await kit.t.db.query('SELECT 1 FROM tenant_memberships WHERE tenant_id = $1', [id])).rows).toHaveLength(1);
    expect((await op('POST', `/api/tenants/${id}/resume`)).json()).toMatchObject({ code: 'TENANT_STATE_CONFLICT' });
    expect(await kit.deps.tenants.purge(new Date(), 30, { kind: 'operator' })).toEqual([]);
    expect(await kit.databases.current.exists('t_delta')).toBe(true);
    const later = new Date(Date.now() + 31 * 86_400_000);
    expect((await kit.deps.tenants.purge(later, 30, { kind: 'operator' })).map((t) => t.slug)).toEqual(['delta']);
    expect(await kit.databases.current.exists('t_delta')).toBe(false);
  });
});
