/**
 * The landing host started the real way (no snapshot source given) serves each tenant's PUBLISHED
 * site from the database, and a publish or rollback committed elsewhere reaches a second landing on
 * the same database within a second (LISTEN platform_website). PGlite: both landings in one process
 * on one handle, as `npm start` runs; PostgreSQL (TEST_DATABASE_URL): the second on its own handle.
 */
import { createPgDb, createTestDb, type Db, migratePlatform, type TestDb, withTenant } from '@platform/db';
import { defaultWebsiteContent, publishWebsite, rollbackWebsite, saveWebsiteDraft } from '@platform/website';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadLandingConfig } from '../config.js';
import { type RunningLanding, startLanding } from '../server.js';

let t: TestDb;
let otherDb: Db | undefined;
let first: RunningLanding;
let second: RunningLanding;
let alpha = '';

const config = () =>
  loadLandingConfig({
    LANDING_PORT: '0',
    LANDING_HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    TENANTS_HOST: 'tenants.test',
  });

const home = async (l: RunningLanding, host: string) =>
  (await l.app.inject({ url: '/', headers: { host, accept: 'text/html', 'accept-encoding': 'identity' } })).body;

async function publish(hero: string): Promise<number> {
  const content = defaultWebsiteContent('Alpha Shades');
  content.hero.title = hero;
  return withTenant(t.db, alpha, async (tx) => {
    await saveWebsiteDraft(tx, alpha, content);
    return (await publishWebsite(tx, alpha, null)).version;
  });
}

async function within(ms: number, l: RunningLanding, text: string): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < ms) {
    if ((await home(l, 'alpha.tenants.test')).includes(text)) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`"${text}" not served within ${ms} ms`);
}

beforeAll(async () => {
  t = await createTestDb(process.env, { migrated: true });
  await migratePlatform(t.db);
  alpha = (
    await t.db.query<{ id: string }>(`INSERT INTO tenants (slug, name) VALUES ('alpha', 'Alpha Ltd') RETURNING id`)
  ).rows[0]!.id;
  await t.db.query(`INSERT INTO tenants (slug, name) VALUES ('beta', 'Beta Ltd')`);
  first = await startLanding(config(), { db: t.db });
  otherDb = t.url ? createPgDb({ url: t.url, max: 2 }) : undefined;
  second = await startLanding(config(), { db: otherDb ?? t.db });
}, 60_000);
afterAll(async () => {
  await second?.close();
  await first?.close();
  await otherDb?.close();
  await t?.drop();
});

describe('the landing host started the real way', () => {
  it("serves a tenant's published hero, and only on its own host", async () => {
    await publish('Shades for mountain light');
    await within(1000, first, 'Shades for mountain light');
    const beta = await home(first, 'beta.tenants.test');
    expect(beta).toContain('Beta Ltd');
    expect(beta).not.toContain('Shades for mountain light');
  });

  it('a publish reaches a second landing on the same database within a second, and a rollback restores', async () => {
    const before = await publish('Version one hero');
    // Both landings render (and cache) the current version before the change.
    await within(1000, first, 'Version one hero');
    await within(1000, second, 'Version one hero');
    await publish('Version two hero');
    expect(await within(1000, second, 'Version two hero')).toBeLessThan(1000);
    expect(await home(second, 'alpha.tenants.test')).not.toContain('Version one hero');
    await withTenant(t.db, alpha, (tx) => rollbackWebsite(tx, alpha, before, null));
    await within(1000, second, 'Version one hero');
    await within(1000, first, 'Version one hero');
    expect(await home(second, 'alpha.tenants.test')).not.toContain('Version two hero');
  });
});
