import pg from 'pg';

import { closedError, type Db, type Queryable, type QueryOptions, type QueryResult } from './db.js';
import { pgListen } from './pg.listen.js';

// bigint (int8) and numeric come back as strings by default; ids and counts fit in a double here.
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

export interface PgOptions {
  url: string;
  max?: number;
  /** Prepended to the search_path of every pooled connection (used for ERP database schemas). */
  searchPath?: string;
}

export function createPgDb(opts: PgOptions): Db {
  const clientConfig = {
    connectionString: opts.url,
    types,
    connectionTimeoutMillis: 5_000,
    ...(opts.searchPath ? { options: `-c search_path=${opts.searchPath},public` } : {}),
  };
  const pool = new pg.Pool({ ...clientConfig, max: opts.max ?? 10 });
  const listeners = new Set<() => Promise<void>>();
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  let closing: Promise<void> | undefined;
  const run = async <T>(q: pg.PoolClient | pg.Pool, sql: string, params?: unknown[], o?: QueryOptions) => {
    const r = await q.query(o?.name ? { name: o.name, text: sql, values: params } : { text: sql, values: params });
    return { rows: r.rows as T[], rowCount: r.rowCount ?? 0 } satisfies QueryResult<T>;
  };
  const open = () => {
    if (closing) throw closedError();
  };
  return {
    engine: 'pg',
    async query(sql, params, o) {
      open();
      return run(pool, sql, params, o);
    },
    async exec(sql) {
      open();
      await pool.query(sql);
    },
    async transaction(fn, opts) {
      open();
      const client = await pool.connect();
      let broken = false;
      let held = false;
      try {
        // One simple-protocol message: BEGIN and the caller's first statements in one round trip.
        const begin = opts?.readOnly ? 'BEGIN READ ONLY' : 'BEGIN';
        await client.query(opts?.begin ? `${begin}; ${opts.begin}` : begin);
        const tx: Queryable = {
          begun: opts?.begin,
          query: (sql, params, o) => run(client, sql, params, o),
          exec: async (sql) => void (await client.query(sql)),
        };
        const out = await fn(tx);
        if (!opts?.readOnly) {
          await client.query('COMMIT');
          return out;
        }
        // A read-only transaction has nothing to make durable: the caller goes on with what it read
        // while COMMIT ends it; the connection returns to the pool only after (destroyed if it failed).
        held = true;
        client.query('COMMIT').then(
          () => client.release(),
          () => client.release(true),
        );
        return out;
      } catch (e) {
        // A connection whose ROLLBACK failed is broken or mid-transaction: destroy it, never reuse it.
        broken = await client.query('ROLLBACK').then(
          () => false,
          () => true,
        );
        throw e;
      } finally {
        if (!held) client.release(broken);
      }
    },
    async listen(channel, fn) {
      open();
      const stop = await pgListen(clientConfig, channel, fn);
      const unlisten = async () => {
        listeners.delete(unlisten);
        await stop();
      };
      listeners.add(unlisten);
      return unlisten;
    },
    // Idempotent like the PGlite handle (pg's Pool.end throws when called twice).
    close: () => (closing ??= Promise.all([...listeners].map((u) => u())).then(() => pool.end())),
  };
}
