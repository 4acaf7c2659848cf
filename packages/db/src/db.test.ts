/**
 * The Db handle behaves the same on both engines (PGlite, or a scratch PostgreSQL database with
 * TEST_DATABASE_URL): result shapes, transactions, migrations, closing and scratch-database cleanup.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { migratePlatform } from './migrate.js';
import { createPgDb } from './pg.client.js';
import { createPgliteDb } from './pglite.client.js';
import { createTestDb, type TestDb } from './test-db.js';

const run = promisify(execFile);
let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
  await t.db.exec(
    'CREATE TABLE items (id bigserial PRIMARY KEY, n integer NOT NULL, at timestamptz DEFAULT now(), doc jsonb, price numeric)',
  );
  await t.db.query(`INSERT INTO items (n, doc, price) VALUES (1, '{"a":1}', 1.50), (2, NULL, NULL), (3, NULL, NULL)`);
});
afterAll(async () => t?.drop());

describe('query results', () => {
  it('rowCount counts returned rows of a SELECT and changed rows of an UPDATE, as node-postgres does', async () => {
    expect((await t.db.query('SELECT id FROM items WHERE n >= 2')).rowCount).toBe(2);
    expect((await t.db.query('SELECT 1 WHERE false')).rowCount).toBe(0);
    expect((await t.db.query('UPDATE items SET n = n WHERE n = 1')).rowCount).toBe(1);
    expect((await t.db.query('UPDATE items SET n = n WHERE n > 100')).rowCount).toBe(0);
    expect((await t.db.query('DELETE FROM items WHERE n > 100 RETURNING id')).rowCount).toBe(0);
  });

  it('parses bigint and count(*) as numbers, timestamptz as Date, jsonb as objects, numeric as text', async () => {
    const r = await t.db.query<Record<string, unknown>>(
      'SELECT id, (SELECT count(*) FROM items) AS total, at, doc, price FROM items WHERE n = 1',
    );
    expect(r.rows[0]).toMatchObject({ id: 1, total: 3, doc: { a: 1 }, price: '1.50' });
    expect(r.rows[0]!.at).toBeInstanceOf(Date);
  });
});

describe('transactions', () => {
  it('commits when the function resolves and rolls everything back when it throws', async () => {
    await t.db.transaction((tx) => tx.query('INSERT INTO items (n) VALUES (10)'));
    await expect(
      t.db.transaction(async (tx) => {
        await tx.query('INSERT INTO items (n) VALUES (11)');
        await tx.query('INSERT INTO items (n) VALUES (NULL)');
      }),
    ).rejects.toMatchObject({ code: '23502' });
    const r = await t.db.query<{ n: number }>('SELECT n FROM items WHERE n >= 10 ORDER BY n');
    expect(r.rows).toEqual([{ n: 10 }]);
  });

  it('a read-only transaction reads, refuses a write on PostgreSQL, and leaves its connection fit for the next', async () => {
    // One connection: the next transaction gets the same one, after the read-only one's COMMIT.
    const one = t.url ? createPgDb({ url: t.url, max: 1 }) : t.db;
    try {
      for (let i = 0; i < 3; i++) {
        const read = await one.transaction((tx) => tx.query<{ n: number }>('SELECT n FROM items WHERE n = 1'), {
          readOnly: true,
        });
        expect(read.rows).toEqual([{ n: 1 }]);
        await one.transaction((tx) => tx.query('INSERT INTO items (n) VALUES (20)'));
      }
      if (t.url)
        await expect(
          one.transaction((tx) => tx.query('INSERT INTO items (n) VALUES (21)'), { readOnly: true }),
        ).rejects.toMatchObject({ code: '25006' });
      expect((await one.query('SELECT n FROM items WHERE n >= 20')).rows).toEqual([{ n: 20 }, { n: 20 }, { n: 20 }]);
    } finally {
      if (one !== t.db) await one.close();
    }
  });
});

describe('migrations', () => {
  it('apply each platform file once: a second run applies nothing', async () => {
    const first = await migratePlatform(t.db);
    expect(first[0]).toMatch(/^0001_/);
    expect(await migratePlatform(t.db)).toEqual([]);
    expect((await t.db.query('SELECT 1 FROM tenants')).rowCount).toBe(0);
  });

  it('two processes starting at once apply every file exactly once, without errors', async (ctx) => {
    if (!t.url) return ctx.skip(); // one PGlite handle is one session; concurrency needs PostgreSQL.
    const scratch = await createTestDb();
    const others = [0, 1, 2].map(() => createPgDb({ url: scratch.url!, max: 2 }));
    try {
      const applied = await Promise.all([scratch.db, ...others].map((db) => migratePlatform(db)));
      const files = applied.flat().sort();
      expect(files).toEqual([...new Set(files)]);
      expect(files[0]).toMatch(/^0001_/);
      expect(await migratePlatform(scratch.db)).toEqual([]);
    } finally {
      await Promise.all(others.map((db) => db.close()));
      await scratch.drop();
    }
  });
});

describe('handles and scratch databases', () => {
  it('close() can be called twice, and a closed handle rejects every call with SQLSTATE 08003', async () => {
    const extra = t.url ? createPgDb({ url: t.url, max: 1 }) : await createPgliteDb();
    await extra.query('SELECT 1');
    await extra.close();
    await expect(extra.close()).resolves.toBeUndefined();
    const closed = { code: '08003', message: expect.stringMatching(/^Connection terminated/) };
    await expect(extra.query('SELECT 1')).rejects.toMatchObject(closed);
    await expect(extra.exec('SELECT 1')).rejects.toMatchObject(closed);
    await expect(extra.transaction(async (tx) => tx.query('SELECT 1'))).rejects.toMatchObject(closed);
  });

  it('drop() removes the scratch database, a forgotten one goes when its process ends, stale ones are swept', async (ctx) => {
    const server = process.env.TEST_DATABASE_URL;
    if (!server || !t.url) return ctx.skip();
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    const exists = async (name: string) =>
      (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
    try {
      const stale = `t_${(Date.now() - 3 * 3600_000).toString(36)}_0badc0de`;
      await admin.query(`CREATE DATABASE ${stale}`);
      const scratch = await createTestDb();
      const name = new URL(scratch.url!).pathname.slice(1);
      expect(await exists(name)).toBe(true);
      expect(await exists(stale)).toBe(false);
      await scratch.db.query('SELECT 1'); // an open pool connection does not keep the database alive
      await scratch.drop();
      await scratch.drop();
      expect(await exists(name)).toBe(false);
      // A process that exits without drop(): its watchdog drops the database.
      const fixture = fileURLToPath(new URL('./forget-drop.fixture.ts', import.meta.url));
      const { stdout } = await run(process.execPath, ['--import', 'tsx', fixture], {
        env: { ...process.env, TEST_DATABASE_URL: server },
      });
      const forgotten = stdout.trim();
      expect(forgotten).toMatch(/^t_/);
      for (let i = 0; i < 100 && (await exists(forgotten)); i++) await new Promise((r) => setTimeout(r, 100));
      expect(await exists(forgotten)).toBe(false);
    } finally {
      await admin.end();
    }
  }, 60_000);
});

describe('a PGlite data directory', () => {
  it('belongs to one open database at a time, and is free again once closed', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'pglite-owner-'));
    try {
      const first = await createPgliteDb({ dataDir: dir });
      await expect(createPgliteDb({ dataDir: dir })).rejects.toThrow(/already open in this process/);
      await first.close();
      const again = await createPgliteDb({ dataDir: dir });
      expect((await again.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one).toBe(1);
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
