/**
 * LISTEN/NOTIFY through the Db handle on PGlite and PostgreSQL: committed notices arrive, rolled back
 * ones do not, and on PostgreSQL a listener whose connection is killed comes back and says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createTestDb, type TestDb } from './test-db.js';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => t?.drop());

async function eventually(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!check()) throw new Error(`never happened: ${what}`);
}

describe('listen', () => {
  it('hears committed notices only, until stopped', async () => {
    const heard: string[] = [];
    const stop = await t.db.listen('test_channel', (p) => heard.push(p));
    await t.db.query(`SELECT pg_notify('test_channel', 'one')`);
    await t.db
      .transaction(async (tx) => {
        await tx.query(`SELECT pg_notify('test_channel', 'rolled-back')`);
        throw new Error('roll back');
      })
      .catch(() => {});
    await t.db.query(`SELECT pg_notify('test_channel', 'two')`);
    await eventually(() => heard.includes('two'), 'second notice');
    expect(heard).toEqual(['one', 'two']);
    await stop();
    await t.db.query(`SELECT pg_notify('test_channel', 'three')`);
    await new Promise((r) => setTimeout(r, 100));
    expect(heard).not.toContain('three');
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'on PostgreSQL, re-listens after its connection is killed and reports the gap',
    async () => {
      const heard: string[] = [];
      const stop = await t.db.listen('gap_channel', (p) => heard.push(p));
      try {
        await t.db.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND query = 'LISTEN "gap_channel"'`,
        );
        await eventually(() => heard.includes(''), 'the gap report');
        await t.db.query(`SELECT pg_notify('gap_channel', 'after')`);
        await eventually(() => heard.includes('after'), 'a notice after reconnecting');
      } finally {
        await stop();
      }
    },
  );
});
