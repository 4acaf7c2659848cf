/**
 * Test helper: a fresh database per test file. With TEST_DATABASE_URL (CI's PostgreSQL run) it
 * creates a scratch database on that server; otherwise it opens an in-memory PGlite.
 */
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import type { Db } from './db.js';
import { createPgDb } from './pg.client.js';
import { createPgliteDb } from './pglite.client.js';

export interface TestDb {
  db: Db;
  /** The URL of the scratch PostgreSQL database, when the run is on PostgreSQL. */
  url: string | undefined;
  drop(): Promise<void>;
}

export async function createTestDb(env: Record<string, string | undefined> = process.env): Promise<TestDb> {
  const server = env.TEST_DATABASE_URL;
  if (!server) {
    const db = await createPgliteDb();
    return { db, url: undefined, drop: () => db.close() };
  }
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = withDatabase(server, name);
  const db = createPgDb({ url, max: 5 });
  return {
    db,
    url,
    async drop() {
      await db.close();
      const a = new pg.Client({ connectionString: server });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
