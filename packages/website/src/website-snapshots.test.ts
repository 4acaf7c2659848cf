/**
 * The landing's snapshot source on PGlite and PostgreSQL (TEST_DATABASE_URL): what a snapshot holds,
 * that it is served from the process's cache, and that a publish, a settings change or a catalogue
 * change committed over another connection drops the right entry and reaches onChange listeners.
 */
import { createPgDb, createTestDb, type Db, migratePlatform, type TestDb, withTenant } from '@platform/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { defaultWebsiteContent } from './default-content.js';
import { publishWebsite, saveWebsiteCatalog, saveWebsiteDraft } from './website.service.js';
import { createWebsiteSnapshotSource, type ListeningSnapshotSource } from './website-snapshots.js';

let t: TestDb;
let writer: Db;
let other: Db | undefined;
const sources: ListeningSnapshotSource[] = [];
let a = '';
let b = '';

async function tenant(slug: string, name: string): Promise<string> {
  const r = await t.db.query<{ id: string }>(
    `INSERT INTO tenants (slug, name, status) VALUES ($1, $2, 'active') RETURNING id`,
    [slug, name],
  );
  return r.rows[0]!.id;
}

async function source(): Promise<ListeningSnapshotSource> {
  const s = createWebsiteSnapshotSource(t.db, { tenantsHost: 'tenants.test', ttlMs: 3_600_000 });
  await s.start();
  sources.push(s);
  return s;
}

async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error(`never happened: ${what}`);
}

beforeAll(async () => {
  t = await createTestDb(process.env, { migrated: true });
  await migratePlatform(t.db);
  a = await tenant('alpha', 'Alpha Ltd');
  b = await tenant('beta', 'Beta Ltd');
  await t.db.query(
    `INSERT INTO tenant_settings (tenant_id, company_name, phone, primary_color) VALUES ($1, 'Alpha Shades', '555-0100', '#112233')`,
    [a],
  );
  await t.db.query(
    `INSERT INTO tenant_domains (tenant_id, domain, domain_type, ssl_status, is_primary) VALUES ($1, 'shades.alpha.example', 'custom', 'active', true)`,
    [a],
  );
  // A change committed by another Db handle: another process, as far as LISTEN/NOTIFY can tell.
  other = t.url ? createPgDb({ url: t.url, max: 1 }) : undefined;
  writer = other ?? t.db;
});
afterAll(async () => {
  for (const s of sources) await s.stop();
  await other?.close();
  await t.drop();
});

describe('website snapshots', () => {
  it('a tenant that never published gets the defaults under its own name, its settings and its host', async () => {
    const s = await source();
    const snap = await s.get(a);
    expect(snap.version).toBe(0);
    expect(snap.content).toEqual(defaultWebsiteContent('Alpha Shades'));
    expect(snap.company).toMatchObject({ name: 'Alpha Shades', phone: '555-0100', primary_color: '#112233' });
    expect(snap.primary_host).toBe('shades.alpha.example');
    expect(snap.meta_pixel_id).toBeNull();
    const other = await s.get(b);
    expect(other.company.name).toBe('Beta Ltd');
    expect(other.primary_host).toBe('beta.tenants.test');
    expect(other.content.about.title).toBe('About Beta Ltd');
  });

  it('serves from the cache: a row changed behind its back without a notice is not read again', async () => {
    const s = await source();
    const first = await s.get(b);
    expect(await s.get(b)).toBe(first);
  });

  it("a publish committed elsewhere reaches the source, drops only that tenant's entry and tells listeners", async () => {
    const s = await source();
    const heard: (string | null)[] = [];
    s.onChange((id) => heard.push(id));
    const beta = await s.get(b);
    await s.get(a);
    const content = { ...defaultWebsiteContent('Alpha Shades'), hero: { title: 'New hero', lead: 'x', cta: 'Go' } };
    await withTenant(writer, a, async (tx) => {
      await saveWebsiteDraft(tx, a, content);
      await publishWebsite(tx, a, null);
    });
    await eventually(async () => (await s.get(a)).content.hero.title === 'New hero', 'the new hero');
    expect((await s.get(a)).version).toBe(1);
    expect(heard).toContain(a);
    expect(await s.get(b)).toBe(beta);
  });

  it('shows only the chosen products, without prices when hidden; areas of branches with ZIP codes', async () => {
    const s = await source();
    await s.get(b);
    await withTenant(writer, b, async (tx) => {
      await saveWebsiteCatalog(tx, b, {
        products: [
          { code: 'roller', name: 'Roller', from_minor: 8900, currency: 'USD' },
          { code: 'shutter', name: 'Shutter', from_minor: 30000, currency: 'USD' },
        ],
        areas: [
          { slug: 'north', name: 'North', zip_codes: ['80211'], phone: null, address: null, branch_id: a },
          { slug: 'office', name: 'Office', zip_codes: [], phone: null, address: null, branch_id: b },
        ],
      });
      await saveWebsiteDraft(tx, b, {
        ...defaultWebsiteContent('Beta Ltd'),
        products_shown: ['roller'],
        show_prices: false,
      });
      await publishWebsite(tx, b, null);
    });
    await eventually(async () => (await s.get(b)).version === 1, 'the published version');
    const snap = await s.get(b);
    expect(snap.catalog.products).toEqual([{ code: 'roller', name: 'Roller', from_minor: null, currency: 'USD' }]);
    expect(snap.catalog.areas.map((x) => x.slug)).toEqual(['north']);
  });

  it('a settings change (platform_tenancy) drops every entry', async () => {
    const s = await source();
    const heard: (string | null)[] = [];
    s.onChange((id) => heard.push(id));
    await s.get(a);
    await writer.query(`UPDATE tenant_settings SET phone = '555-0199' WHERE tenant_id = $1`, [a]);
    await eventually(async () => (await s.get(a)).company.phone === '555-0199', 'the new phone');
    expect(heard).toContain(null);
  });

  it('drops every entry when its LISTEN connection comes back (notices may have been lost meanwhile)', async () => {
    const heard: Record<string, (payload: string) => void> = {};
    // The same database, with a listen whose deliveries the test makes: '' is what a reconnect says.
    const db = Object.assign(Object.create(t.db) as Db, {
      listen: async (channel: string, fn: (payload: string) => void) => {
        heard[channel] = fn;
        return async () => {};
      },
    });
    const s = createWebsiteSnapshotSource(db, { tenantsHost: 'tenants.test', ttlMs: 3_600_000 });
    await s.start();
    const told: (string | null)[] = [];
    s.onChange((id) => told.push(id));
    const [first, second] = [await s.get(a), await s.get(b)];
    heard.platform_website!(b);
    expect(await s.get(a)).toBe(first);
    expect(await s.get(b)).not.toBe(second);
    heard.platform_website!('');
    expect(await s.get(a)).not.toBe(first);
    expect(told).toEqual([b, null]);
  });

  it('an entry expires after its time to live even without a notice', async () => {
    let clock = 0;
    const s = createWebsiteSnapshotSource(t.db, { tenantsHost: 'tenants.test', ttlMs: 1000, now: () => clock });
    const first = await s.get(b);
    expect(await s.get(b)).toBe(first);
    clock = 1001;
    expect(await s.get(b)).not.toBe(first);
  });
});
