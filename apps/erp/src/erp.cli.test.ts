import { createTestDb, type TestDb } from '@platform/db';
import { EmbeddedErp } from '@platform/erp-embedded';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runCli } from './erp.cli.js';

let t: TestDb;
let erp: EmbeddedErp;
beforeAll(async () => {
  t = await createTestDb();
  erp = new EmbeddedErp(t.db);
  await erp.createDatabase('platform', { adminPassword: 'pw' });
});
afterAll(async () => t?.drop());

const run = async (...argv: string[]) => {
  const lines: string[] = [];
  const code = await runCli(argv, erp, 'platform', (s) => lines.push(s));
  return { code, out: lines.join('\n') };
};

describe('erp CLI', () => {
  it('creates an API key shown once, lists it without the key, and revokes it', async () => {
    const created = await run('apikey', 'create', '--login', 'admin', '--description', 'zapier');
    const key = /([0-9a-f]{40})/.exec(created.out)![1]!;
    expect(await erp.authenticate('platform', 'admin', key)).toBe(2);
    const listed = await run('apikey', 'list');
    expect(listed.out).toContain('zapier');
    expect(listed.out).not.toContain(key);
    const id = /^(\d+)\tadmin\tzapier/m.exec(listed.out)![1]!;
    expect((await run('apikey', 'revoke', id)).code).toBe(0);
    expect(await erp.authenticate('platform', 'admin', key)).toBe(false);
  });

  it('creates a database with a printed admin password, lists and drops it', async () => {
    const created = await run('db', 'create', 'tenant_b');
    const password = /password \(shown once\): (\S+)/.exec(created.out)![1]!;
    expect(await erp.authenticate('tenant_b', 'admin', password)).toBe(2);
    expect((await run('db', 'list')).out.split('\n')).toEqual(['platform', 'tenant_b']);
    await run('db', 'drop', 'tenant_b');
    expect((await run('db', 'list')).out).toBe('platform');
  });

  it('seeds demo data into the default database or --db, and a second run creates nothing', async () => {
    const first = await run('seed');
    expect(first).toMatchObject({
      code: 0,
      out: expect.stringMatching(/^demo data seeded in platform: \d+ records created, 0 already there$/),
    });
    const orders = await erp.executeKw('platform', 2, 'pw', 'sale.order', 'search_count', [[]]);
    expect(orders).toBeGreaterThanOrEqual(6);
    const second = await run('seed', '--db', 'platform');
    expect(second).toMatchObject({
      code: 0,
      out: expect.stringMatching(/^demo data already in platform \(\d+ records\): nothing to do$/),
    });
    expect(await erp.executeKw('platform', 2, 'pw', 'sale.order', 'search_count', [[]])).toBe(orders);
    await expect(run('seed', '--db', 'nope')).rejects.toMatchObject({ odooName: 'psycopg2.OperationalError' });
  });

  it('prints usage and exits 2 on an unknown command', async () => {
    expect(await run('frob')).toMatchObject({ code: 2, out: expect.stringContaining('usage') });
  });
});
