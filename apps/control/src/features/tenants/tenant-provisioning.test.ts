/**
 * Provisioning on a real embedded ERP over JSON-RPC: each tenant gets its own ERP database and
 * service account (a lead written through A's routing is not in B's database), an interrupted
 * creation finishes when run again, and nothing half-made is reachable meanwhile.
 */
import { withTenant } from '@platform/db';
import { createOdooErp } from '@platform/erp';
import { AppError } from '@platform/kernel';
import { ErpDatabases, findTenantByDomain, getErpRouting } from '@platform/tenancy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { issueAccessToken } from '../auth/access-token.js';
import { MASTER, startTenantsKit, type TenantsKit } from './tenants.test-kit.js';

let kit: TenantsKit;
beforeAll(async () => {
  kit = await startTenantsKit();
}, 120_000);
afterAll(async () => kit?.close());

const create = (slug: string, extra: Record<string, unknown> = {}) =>
  kit.app.inject({
    method: 'POST',
    url: '/api/tenants',
    headers: kit.operator,
    payload: {
      slug,
      name: `Blinds ${slug}`,
      plan: 'starter',
      owner_email: `owner@${slug}.test`,
      owner_password: 'correct horse battery',
      ...extra,
    },
  });

describe('creating tenants', { timeout: 120_000 }, () => {
  it("gives each tenant its own ERP database, and a lead made through A's routing is not in B's", async () => {
    const a = await create('acme-blinds');
    expect(a.statusCode).toBe(201);
    expect(a.json()).toMatchObject({ slug: 'acme-blinds', erp_db: 't_acme_blinds', status: 'active' });
    const b = (await create('bravo-shades')).json<{ id: string; erp_db: string }>();
    expect(b.erp_db).toBe('t_bravo_shades');
    expect(await kit.databases.current.list()).toEqual(expect.arrayContaining(['t_acme_blinds', 't_bravo_shades']));

    const erpA = await kit.deps.erps.forTenant(a.json<{ id: string }>().id);
    const erpB = await kit.deps.erps.forTenant(b.id);
    const lead = await erpA.create('crm.lead', { name: 'Shutters for the kitchen' });
    expect(await erpA.searchCount('crm.lead', [['id', '=', lead]])).toBe(1);
    expect(await erpB.searchCount('crm.lead', [['name', '=', 'Shutters for the kitchen']])).toBe(0);
  });

  it('uses a dedicated service account, not the ERP administrator, and keeps its key sealed', async () => {
    const id = (await create('charlie-sun')).json<{ id: string }>().id;
    const routing = await getErpRouting(kit.t.db, kit.deps.box, id);
    expect(routing).toMatchObject({ kind: 'embedded', db: 't_charlie_sun', login: 'platform-service' });
    const stored = await kit.t.db.query<{ api_key_sealed: string }>(
      'SELECT api_key_sealed FROM tenant_erp_routing WHERE tenant_id = $1',
      [id],
    );
    expect(stored.rows[0]!.api_key_sealed).not.toContain(routing!.apiKey);
    const erp = createOdooErp({
      url: kit.erp.url,
      db: 't_charlie_sun',
      login: 'platform-service',
      secret: routing!.apiKey,
    });
    expect(await erp.authenticate()).toBeGreaterThan(2);
    // The key opens only its own database.
    const elsewhere = createOdooErp({
      url: kit.erp.url,
      db: 't_acme_blinds',
      login: 'platform-service',
      secret: routing!.apiKey,
    });
    await expect(elsewhere.authenticate()).rejects.toMatchObject({ code: 'ERP_AUTH_FAILED' });
  });

  it('makes the platform subdomain and the owner, and answers the same tenant when asked again', async () => {
    const first = (await create('delta-drapes')).json<{ id: string }>();
    const again = await create('delta-drapes');
    expect(again.statusCode).toBe(201);
    expect(again.json()).toMatchObject({ id: first.id, status: 'active' });
    expect(await findTenantByDomain(kit.t.db, 'delta-drapes.tenants.localhost')).toMatchObject({ id: first.id });
    const owners = await withTenant(kit.t.db, first.id, (tx) =>
      tx.query(`SELECT u.email FROM tenant_memberships m JOIN users u ON u.id = m.user_id WHERE m.role = 'owner'`),
    );
    expect(owners.rows).toEqual([{ email: 'owner@delta-drapes.test' }]);
    const audit = await withTenant(kit.t.db, first.id, (tx) => tx.query(`SELECT action, actor_kind FROM audit_log`));
    expect(audit.rows).toContainEqual({ action: 'tenant.create', actor_kind: 'operator' });
  });
});

describe('an interrupted creation', { timeout: 120_000 }, () => {
  it('leaves nothing reachable, and running it again finishes it', async () => {
    const real = kit.databases.current;
    class Failing extends ErpDatabases {
      override async createServiceAccount(): Promise<never> {
        throw new AppError('ERP_UNAVAILABLE', 'the ERP went away after creating the database');
      }
    }
    kit.databases.use(new Failing({ url: kit.erp.url, masterPassword: MASTER, timeoutMs: 30_000 }));
    const failed = await create('echo-blinds');
    kit.databases.use(real);
    expect(failed.statusCode).toBe(503);
    const row = await kit.t.db.query<{ id: string; status: string }>(
      `SELECT id, status FROM tenants WHERE slug = 'echo-blinds'`,
    );
    expect(row.rows[0]!.status).toBe('provisioning');
    const id = row.rows[0]!.id;
    expect(await findTenantByDomain(kit.t.db, 'echo-blinds.tenants.localhost')).toBeUndefined();
    const token = await issueAccessToken(
      kit.deps.tokenKeys,
      { userId: '00000000-0000-4000-8000-000000000000', tenantId: id, role: 'owner', email: 'x@y.test' },
      60,
    );
    const refused = await kit.app.inject({ url: `/api/tenants/${id}`, headers: { authorization: `Bearer ${token}` } });
    expect(refused.statusCode).toBe(401);

    const done = await create('echo-blinds');
    expect(done.statusCode).toBe(201);
    expect(done.json()).toMatchObject({ id, status: 'active', erp_db: 't_echo_blinds' });
    const erp = await kit.deps.erps.forTenant(id);
    expect(await erp.authenticate()).toBeGreaterThan(2);
    expect((await kit.databases.current.list()).filter((d) => d === 't_echo_blinds')).toHaveLength(1);
  });

  it('refuses an outside ERP that does not accept the service account, writing nothing', async () => {
    const r = await create('foxtrot-blinds', {
      erp: { url: kit.erp.url, db: 'install_default', login: 'admin', api_key: '0'.repeat(40) },
    });
    expect(r.statusCode).toBe(422);
    expect(r.json().errors).toContainEqual(expect.objectContaining({ field: 'erp.api_key' }));
    expect((await kit.t.db.query(`SELECT 1 FROM tenants WHERE slug = 'foxtrot-blinds'`)).rows).toHaveLength(0);
  });

  it('routes a tenant to an outside Odoo 15 that accepts its service account', async () => {
    const r = await create('golf-shutters', {
      erp: { url: kit.erp.url, db: 'install_default', login: 'admin', api_key: kit.erp.apiKey },
    });
    expect(r.statusCode).toBe(201);
    expect(r.json()).toMatchObject({ erp_db: 'install_default' });
    const id = r.json<{ id: string }>().id;
    expect(await getErpRouting(kit.t.db, kit.deps.box, id)).toMatchObject({ kind: 'odoo', db: 'install_default' });
    expect((await kit.databases.current.list()).some((d) => d.includes('golf'))).toBe(false);
  });
});
