/**
 * Test helper: a fresh database per test file. With TEST_DATABASE_URL (CI's PostgreSQL run) it
 * creates a scratch database on that server; otherwise it opens an in-memory PGlite. Call `drop()`
 * in the file's afterAll: it always removes the scratch database, even when closing the pool fails.
 * Should a file forget, or its process die, a watchdog drops the database when the process ends.
 */
import { randomBytes } from 'node:crypto';

import pg from 'pg';

import type { Db } from './db.js';
import { createPgDb } from './pg.client.js';
import { createPgliteDb } from './pglite.client.js';
import { watchScratchDatabase } from './test-db.watchdog.js';
import { migratedPgliteDump, migratedPgTemplate } from './testing/migrated-template.js';

export interface TestDb {
  db: Db;
  /** The URL of the scratch PostgreSQL database, when the run is on PostgreSQL. */
  url: string | undefined;
  drop(): Promise<void>;
}

/** Scratch databases are named `t_<created, base36 ms>_<random>`, so stale ones can be recognised. */
const SCRATCH_RE = /^t_([0-9a-z]{6,10})_[0-9a-f]{8}$/;
/** A scratch database this old with nobody connected was left by a killed run. */
const STALE_MS = 60 * 60_000;

async function withAdmin<T>(server: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end().catch(() => {});
  }
}

/** Drops scratch databases of earlier runs that were killed before their afterAll could drop them. */
async function sweepStale(admin: pg.Client, now = Date.now()): Promise<void> {
  const r = await admin.query<{ datname: string }>(
    `SELECT datname FROM pg_database d WHERE datname LIKE 't\\_%'
       AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.datid = d.oid)`,
  );
  for (const { datname } of r.rows) {
    const m = SCRATCH_RE.exec(datname);
    if (!m || now - parseInt(m[1]!, 36) < STALE_MS) continue;
    // Without FORCE: a database someone is connected to is left alone.
    await admin.query(`DROP DATABASE IF EXISTS "${datname}"`).catch(() => {});
  }
}

export interface TestDbOptions {
  /** Every platform migration already applied (copied from a template: testing/migrated-template.ts). */
  migrated?: boolean;
}

export async function createTestDb(
  env: Record<string, string | undefined> = process.env,
  opts: TestDbOptions = {},
): Promise<TestDb> {
  const server = env.TEST_DATABASE_URL;
  if (!server) {
    const db = await createPgliteDb(opts.migrated ? { loadDataDir: await migratedPgliteDump() } : {});
    return { db, url: undefined, drop: () => db.close() };
  }
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withAdmin(server, async (admin) => {
    await sweepStale(admin).catch(() => {});
    const template = opts.migrated ? ` TEMPLATE ${await migratedPgTemplate(admin, server, withDatabase)}` : '';
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${name}${template}`);
        return;
      } catch (e) {
        // 55006: someone else is connected to the template database for a moment; try again.
        if ((e as { code?: string }).code !== '55006' || attempt >= 10) throw e;
        await new Promise((r) => setTimeout(r, 200 * attempt));
      }
    }
  });
  const watchdog = watchScratchDatabase(server, name);
  const url = withDatabase(server, name);
  const db = createPgDb({ url, max: 5 });
  let dropped: Promise<void> | undefined;
  return {
    db,
    url,
    drop: () =>
      (dropped ??= (async () => {
        watchdog.cancel();
        try {
          await db.close();
        } finally {
          // FORCE ends connections a test left open (a server under test with its own pool).
          await withAdmin(server, (a) => a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
        }
      })()),
  };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
