/**
 * Composition of backups for one engine: which dumps to take, where objects live, where backups go,
 * and how each database is put back. Used by the worker's schedule, the CLI and the restore drill.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { type Db, openDb } from '@platform/db';
import { type ObjectStore, openObjectStore } from '@platform/storage';

import { type BackupConfig, backupKeyring } from './backup.config.js';
import { BackupService, type DatabaseRestorer } from './backup.service.js';
import { pgDump, pgliteDump, pgliteRestore, pgRestore } from './database-dump.js';

export interface BackupStores {
  objects?: ObjectStore;
  target?: ObjectStore;
}

/**
 * `pgliteDbs`: the open PGlite databases by directory name (`platform`, `erp`) when DATABASE_URL is
 * unset; their owner process takes the dump. On PostgreSQL one pg_dump covers every database of the platform.
 */
export function composeBackups(
  c: BackupConfig,
  pgliteDbs: Record<string, Db> = {},
  stores: BackupStores = {},
): BackupService {
  const databases = c.DATABASE_URL
    ? [pgDump(c.DATABASE_URL)]
    : Object.entries(pgliteDbs).map(([name, db]) => pgliteDump(name, db));
  return new BackupService({
    databases,
    objects: stores.objects ?? openObjectStore(c.storage, join(c.DATA_DIR, 'objects')),
    target: stores.target ?? openObjectStore(c.target, c.targetDir),
    keyring: backupKeyring(c),
  });
}

/**
 * The embedded databases (`platform`, `erp`) of DATA_DIR, opened as their owner: a running platform
 * owns them, and its served connection cannot dump a data directory, so this fails with a clear
 * message (stop `npm start` first) instead. Empty on PostgreSQL.
 */
export async function openPgliteDatabases(c: BackupConfig): Promise<Record<string, Db>> {
  const dbs: Record<string, Db> = {};
  if (c.DATABASE_URL) return dbs;
  try {
    for (const name of ['platform', 'erp'])
      if (existsSync(join(c.DATA_DIR, name))) dbs[name] = await openDb({ dataDir: c.DATA_DIR, name, owner: true });
  } catch (e) {
    for (const db of Object.values(dbs)) await db.close();
    throw e;
  }
  return dbs;
}

/** Restores onto DATABASE_URL, or into DATA_DIR/<name> for PGlite (the platform must be stopped). */
export function databaseRestorer(c: BackupConfig, log: (line: string) => void = () => {}): DatabaseRestorer {
  return async (db, file) => {
    if (db.format === 'pg_dump-custom') {
      if (!c.DATABASE_URL)
        throw new Error('this backup is of PostgreSQL: set DATABASE_URL to the database to restore into');
      await pgRestore(c.DATABASE_URL, file);
      return;
    }
    if (c.DATABASE_URL)
      throw new Error(
        'this backup is of the embedded PGlite databases: unset DATABASE_URL to restore it into DATA_DIR',
      );
    if (!/^[a-z]+$/.test(db.name)) throw new Error(`unexpected database name ${db.name} in the manifest`);
    // Opening it as its owner claims the directory: a running platform makes this fail with a clear
    // message instead of having its files replaced underneath it (a plain open would be served).
    if (existsSync(join(c.DATA_DIR, db.name)))
      await (await openDb({ dataDir: c.DATA_DIR, name: db.name, owner: true })).close();
    const kept = await pgliteRestore(join(c.DATA_DIR, db.name), file);
    if (kept) log(`previous ${db.name} data kept in ${kept}`);
  };
}
