/** ERP databases are labelled with their tenant's slug, including tenants created while the worker runs. */
import { createTestDb, migratePlatform, type TestDb } from '@platform/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { TenantLabels } from './tenant-labels.js';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb(process.env, { migrated: true });
  await migratePlatform(t.db);
  await t.db.query(`INSERT INTO tenants (slug, name, is_default) VALUES ('main-co', 'Main', true)`);
}, 120_000);
afterAll(() => t?.drop());

describe('tenant labels of ERP databases', () => {
  it('names the default database by the default tenant, a new tenant after the refresh, a stranger by its name', async () => {
    let now = 0;
    const labels = new TenantLabels(t.db, 'platform', 30_000, () => now);
    expect(await labels.of(null)).toBe('main-co');
    expect(await labels.of('platform')).toBe('main-co');
    await t.db.query(`INSERT INTO tenants (slug, name, erp_db) VALUES ('second-co', 'Second', 'erp_second')`);
    // Within the refresh interval the tenants table is not read again for every unknown name.
    now = 10_000;
    expect(await labels.of('erp_second')).toBe('erp_second');
    now = 40_000;
    expect(await labels.of('erp_second')).toBe('second-co');
    now = 80_000;
    expect(await labels.of('no_such_db')).toBe('no_such_db');
  });
});
