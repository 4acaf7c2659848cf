/**
 * Test support: a platform database with every migration applied, made once and copied per test
 * file instead of migrating each new database (about 1 to 3 s a file on this machine). On PGlite a
 * dump of a migrated in-memory database, kept in node_modules/.cache beside the fresh one
 * (pglite.template.ts); on PostgreSQL a template database `tpl_platform_<hash>` copied by
 * CREATE DATABASE … TEMPLATE. Both are named by a hash of the migration files, so a changed or added
 * migration makes a new one; older templates are dropped when nobody uses them.
 */
import { createHash, randomBytes } from 'node:crypto';

import type pg from 'pg';

import { listMigrations, migratePlatform, PLATFORM_MIGRATIONS_DIR } from '../migrate.js';
import { createPgDb } from '../pg.client.js';
import { createPgliteDb } from '../pglite.client.js';
import { cachedTar } from '../pglite.template.js';

export function migrationsHash(): string {
  const h = createHash('sha256');
  for (const m of listMigrations(PLATFORM_MIGRATIONS_DIR)) h.update(`${m.name}\n${m.sql}\n`);
  return h.digest('hex').slice(0, 12);
}

let dump: Promise<Blob> | undefined;

/** The dump of a migrated PGlite database: read from the cache, or made (and cached) the first time. */
export function migratedPgliteDump(): Promise<Blob> {
  dump ??= cachedTar('migrated', `-${migrationsHash()}`, async () => {
    const db = await createPgliteDb();
    try {
      await migratePlatform(db);
      return await db.dumpDataDir!();
    } finally {
      await db.close();
    }
  });
  dump.catch(() => (dump = undefined));
  return dump;
}

/**
 * The name of the migrated template database on this server, made the first time (under an advisory
 * lock, built aside and renamed, so a concurrent file waits instead of copying half a template).
 */
export async function migratedPgTemplate(
  admin: pg.Client,
  server: string,
  withDatabase: (url: string, db: string) => string,
): Promise<string> {
  const name = `tpl_platform_${migrationsHash()}`;
  const exists = async () => (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount! > 0;
  if (await exists()) return name;
  await admin.query(`SELECT pg_advisory_lock(hashtext('platform test template'))`);
  try {
    if (await exists()) return name;
    const building = `${name}_b${randomBytes(3).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${building}`);
    const db = createPgDb({ url: withDatabase(server, building), max: 1 });
    try {
      await migratePlatform(db);
    } finally {
      await db.close();
    }
    await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    // Templates of older migration sets (and builds a killed run left) nobody is connected to.
    const old = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database d WHERE datname LIKE 'tpl\\_platform\\_%' AND datname <> $1
         AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.datid = d.oid)`,
      [name],
    );
    for (const { datname } of old.rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}"`).catch(() => {});
    return name;
  } finally {
    await admin.query(`SELECT pg_advisory_unlock(hashtext('platform test template'))`);
  }
}
