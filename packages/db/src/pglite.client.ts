import { mkdirSync } from 'node:fs';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import type { Db, Queryable, QueryResult } from './db.js';

export interface PgliteOptions {
  /** A directory for a file-backed database, or undefined for an in-memory one (tests). */
  dataDir?: string;
}

/**
 * PGlite runs Postgres inside this process with fsync off: commits survive a process crash but not
 * a power loss. That is why PostgreSQL is the production recommendation (README).
 */
export async function createPgliteDb(opts: PgliteOptions = {}): Promise<Db> {
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  const pg = await PGlite.create(opts.dataDir ?? 'memory://', {
    parsers: { [pgliteTypes.INT8]: (v: string) => Number(v) },
  });
  const toResult = <T>(r: { rows: unknown[]; affectedRows?: number }): QueryResult<T> => ({
    rows: r.rows as T[],
    rowCount: r.affectedRows ?? r.rows.length,
  });
  return wrapPglite(pg, toResult);
}

function wrapPglite(
  pg: PGlite,
  toResult: <T>(r: { rows: unknown[]; affectedRows?: number }) => QueryResult<T>,
): Db {
  let closed = false;
  return {
    engine: 'pglite',
    query: async <T>(sql: string, params?: unknown[]) => toResult<T>(await pg.query(sql, params)),
    exec: async (sql: string) => void (await pg.exec(sql)),
    transaction: (fn) =>
      pg.transaction(async (t) => {
        const tx: Queryable = {
          query: async <T>(sql: string, params?: unknown[]) => toResult<T>(await t.query(sql, params)),
          exec: async (sql: string) => void (await t.exec(sql)),
        };
        return fn(tx);
      }),
    async close() {
      if (closed) return;
      closed = true;
      await pg.close();
    },
  };
}
