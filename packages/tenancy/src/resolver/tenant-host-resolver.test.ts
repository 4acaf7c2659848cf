/**
 * Host → tenant on PGlite and PostgreSQL (TEST_DATABASE_URL): what resolves, what does not, and that
 * a change to a tenant or domain reaches a process's cache through LISTEN/NOTIFY, also when the
 * change is made over another connection.
 */
import { createPgDb, createTestDb, type Db, migratePlatform, type TestDb } from '@platform/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { normaliseHost } from './host-name.js';
import { TenantHostResolver } from './tenant-host-resolver.js';

let t: TestDb;
let other: Db | undefined;
const ids: Record<string, string> = {};
const resolvers: TenantHostResolver[] = [];

async function tenant(slug: string, extra: { status?: string; site_name?: string; team?: number } = {}) {
  const r = await t.db.query<{ id: string }>(
    `INSERT INTO tenants (slug, name, status, site_name, helpdesk_team_id) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [slug, `${slug} Ltd`, extra.status ?? 'active', extra.site_name ?? null, extra.team ?? null],
  );
  return (ids[slug] = r.rows[0]!.id);
}

function resolver(db: Db = t.db): TenantHostResolver {
  const r = new TenantHostResolver(db, {
    tenantsHost: 'tenants.test',
    defaultHosts: ['localhost', 'www.example.test'],
    defaultSiteName: 'Acme Blinds',
    ttlMs: 3_600_000,
  });
  resolvers.push(r);
  return r;
}

async function eventually(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error(`never happened: ${what}`);
}

beforeAll(async () => {
  t = await createTestDb(process.env, { migrated: true });
  await migratePlatform(t.db);
  await t.db.query(`INSERT INTO tenants (slug, name, is_default) VALUES ('default', 'Default', true)`);
  await tenant('alpha', { site_name: 'Alpha Shades', team: 7 });
  await tenant('beta');
  await t.db.query(`INSERT INTO tenant_settings (tenant_id, company_name) VALUES ($1, 'Beta Blinds Co')`, [ids.beta]);
  await tenant('gamma');
  await tenant('frozen', { status: 'suspended' });
  await t.db.query(
    `INSERT INTO tenant_domains (tenant_id, domain, domain_type, ssl_status) VALUES
       ($1, 'shop.alpha.example', 'custom', 'active'), ($1, 'xn--bcher-kva.example', 'custom', 'active'),
       ($2, 'waiting.beta.example', 'custom', 'pending'), ($3, 'shop.frozen.example', 'custom', 'active')`,
    [ids.alpha, ids.beta, ids.frozen],
  );
});
afterAll(async () => {
  for (const r of resolvers) await r.stop();
  await other?.close();
  await t?.drop();
});

describe('host names', () => {
  it('are compared in lower case, without port or trailing dot, internationalised names in ASCII', () => {
    expect(normaliseHost('Shop.Alpha.Example.:8443')).toBe('shop.alpha.example');
    expect(normaliseHost('BÜCHER.example')).toBe('xn--bcher-kva.example');
    expect(normaliseHost('[::1]:8001')).toBe('[::1]');
    expect(normaliseHost('ex%41mple.com')).toBe('');
    expect(normaliseHost(undefined)).toBe('');
  });
});

describe('resolution', () => {
  it("resolves an active tenant's platform subdomain, whatever the case and port", async () => {
    expect(await resolver().resolve('ALPHA.tenants.test:8001')).toEqual({
      tenantId: ids.alpha,
      slug: 'alpha',
      name: 'alpha Ltd',
      siteName: 'Alpha Shades',
      helpdeskTeamId: 7,
      erpDb: null,
      isDefault: false,
    });
  });

  it('names the site from tenant settings, else the tenant name, when the tenant has no site name', async () => {
    const r = resolver();
    expect((await r.resolve('beta.tenants.test'))?.siteName).toBe('Beta Blinds Co');
    expect((await r.resolve('gamma.tenants.test'))?.siteName).toBe('gamma Ltd');
  });

  it('resolves an active custom domain, also typed in Unicode', async () => {
    const r = resolver();
    expect((await r.resolve('shop.alpha.example'))?.tenantId).toBe(ids.alpha);
    expect((await r.resolve('Bücher.example'))?.tenantId).toBe(ids.alpha);
  });

  it('does not resolve a pending domain, a suspended tenant, an unknown host or a deeper subdomain', async () => {
    const r = resolver();
    for (const host of [
      'waiting.beta.example',
      'frozen.tenants.test',
      'shop.frozen.example',
      'nobody.example.org',
      'x.alpha.tenants.test',
      'tenants.test',
      'nosuch.tenants.test',
      '',
    ])
      expect(await r.resolve(host), host).toBeUndefined();
  });

  it("answers the serving host's own names with the default tenant and its configured site name", async () => {
    const d = await resolver().resolve('localhost:8001');
    expect(d).toMatchObject({ slug: 'default', isDefault: true, siteName: 'Acme Blinds' });
    expect(await resolver().resolve('www.example.test')).toMatchObject({ slug: 'default' });
  });
});

describe('cache invalidation', () => {
  it('a domain activated over another connection resolves at once in the process that cached its miss', async () => {
    other = t.url ? createPgDb({ url: t.url, max: 1 }) : undefined;
    const writer = other ?? t.db;
    const r = resolver();
    await r.start();
    expect(await r.resolve('waiting.beta.example')).toBeUndefined();
    expect(r.cached('waiting.beta.example')).toBeNull();
    await writer.query(`UPDATE tenant_domains SET ssl_status = 'active' WHERE domain = 'waiting.beta.example'`);
    await eventually(() => r.cached('waiting.beta.example') === undefined, 'the cached miss was dropped');
    expect((await r.resolve('waiting.beta.example'))?.tenantId).toBe(ids.beta);
  });

  it('a suspended tenant stops resolving, and a renamed site name shows, without waiting for the TTL', async () => {
    const writer = other ?? t.db;
    const r = resolver();
    await r.start();
    expect((await r.resolve('gamma.tenants.test'))?.siteName).toBe('gamma Ltd');
    await writer.query(`UPDATE tenants SET site_name = 'Gamma Windows' WHERE id = $1`, [ids.gamma]);
    await eventually(async () => (await r.resolve('gamma.tenants.test'))?.siteName === 'Gamma Windows', 'rename');
    await writer.query(`UPDATE tenants SET status = 'suspended' WHERE id = $1`, [ids.gamma]);
    await eventually(async () => (await r.resolve('gamma.tenants.test')) === undefined, 'suspension');
  });

  it('without a change the cached answer stays (no database round trip per request)', async () => {
    const r = resolver();
    await r.start();
    await r.resolve('shop.alpha.example');
    expect(r.cached('shop.alpha.example')?.tenantId).toBe(ids.alpha);
    await t.db.query(`UPDATE tenant_domains SET last_checked_at = now() WHERE domain = 'shop.alpha.example'`);
    await new Promise((res) => setTimeout(res, 100));
    expect(r.cached('shop.alpha.example')?.tenantId).toBe(ids.alpha);
  });
});
