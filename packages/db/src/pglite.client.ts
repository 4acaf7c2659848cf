import { mkdirSync } from 'node:fs';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { closedError, type Db, type Queryable, type QueryResult } from './db.js';
import { freshDataDirTar, prepareDataDir } from './pglite.template.js';
import { claimDataDir } from './pglite.owner.js';

export interface PgliteOptions {
  /** A directory for a file-backed database, or undefined for an in-memory one (tests). */
  dataDir?: string;
}

/**
 * PGlite runs Postgres inside this process with fsync off: commits survive a process crash but not
 * a power loss. That is why PostgreSQL is the production recommendation (README).
 */
export async function createPgliteDb(opts: PgliteOptions = {}): Promise<Db> {
  const parsers = { [pgliteTypes.INT8]: (v: string) => Number(v) };
  let pg: PGlite;
  let release = (): void => {};
  if (opts.dataDir) {
    // A new data directory starts from the prepared one (pglite.template.ts) instead of running initdb.
    await prepareDataDir(opts.dataDir);
    mkdirSync(opts.dataDir, { recursive: true });
    release = claimDataDir(opts.dataDir);
    try {
      pg = await PGlite.create(opts.dataDir, { parsers });
    } catch (e) {
      release();
      throw e;
    }
  } else {
    const tar = await freshDataDirTar();
    pg = tar
      ? await PGlite.create('memory://', { parsers, loadDataDir: tar }).catch(() => PGlite.create('memory://', { parsers }))
      : await PGlite.create('memory://', { parsers });
  }
  // node-postgres' rowCount: rows changed by INSERT/UPDATE/DELETE, rows returned by SELECT. PGlite's
  // affectedRows is 0 for a SELECT, so it must not be used alone (`SELECT 1 ... ; rowCount > 0` checks).
  const toResult = <T>(r: { rows: unknown[]; affectedRows?: number; rowCount?: number }): QueryResult<T> => ({
    rows: r.rows as T[],
    rowCount: r.rowCount ?? (r.affectedRows || r.rows.length),
  });
  return wrapPglite(pg, toResult, release);
}

function wrapPglite(
  pg: PGlite,
  toResult: <T>(r: { rows: unknown[]; affectedRows?: number; rowCount?: number }) => QueryResult<T>,
  release: () => void,
): Db {
  let closed = false;
  const open = () => {
    if (closed) throw closedError();
  };
  return {
    engine: 'pglite',
    async query<T>(sql: string, params?: unknown[]) {
      open();
      return toResult<T>(await pg.query(sql, params));
    },
    async exec(sql: string) {
      open();
      await pg.exec(sql);
    },
    async transaction(fn) {
      open();
      return pg.transaction(async (t) => {
        const tx: Queryable = {
          query: async <T>(sql: string, params?: unknown[]) => toResult<T>(await t.query(sql, params)),
          exec: async (sql: string) => void (await t.exec(sql)),
        };
        return fn(tx);
      });
    },
    async dumpDataDir() {
      open();
      return pg.dumpDataDir('none');
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await pg.close();
      } finally {
        release();
      }
    },
  };
}
