/**
 * The platform's database handle. Two engines behind one small interface: PostgreSQL (node-postgres
 * pool) in production, PGlite (in-process Postgres) as the embedded default. Same SQL on both.
 */
export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface QueryOptions {
  name?: string | undefined;
}

export interface Queryable {
  /**
   * `opts.name`: on PostgreSQL a named prepared statement, planned once per connection and reused
   * (for a hot statement whose planning costs as much as its run); one name, one text. PGlite plans
   * every query and ignores it.
   */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], opts?: QueryOptions): Promise<QueryResult<T>>;
  /** Runs a script of several statements without parameters (migrations, fixtures). */
  exec(sql: string): Promise<void>;
  /** In a transaction: the `begin` it was opened with (withTenant checks its scope was applied). */
  readonly begun?: string | undefined;
}

export interface Db extends Queryable {
  readonly engine: 'pg' | 'pglite';
  /**
   * Runs `fn` in one transaction; commits when it resolves, rolls back when it throws. `begin`:
   * statements without parameters run first, sent with BEGIN in one round trip on PostgreSQL.
   * `readOnly` (PostgreSQL): BEGIN READ ONLY (a write in `fn` fails), and the call resolves without
   * waiting for the COMMIT, which has nothing to make durable; PGlite ignores it.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, opts?: { begin?: string; readOnly?: boolean }): Promise<T>;
  /**
   * LISTEN on a channel: `fn` gets each NOTIFY payload committed by any connection. PostgreSQL holds a
   * dedicated connection for it (a pooled one would lose the LISTEN when returned) and reconnects
   * after losing it; since notices sent meanwhile are lost, `fn` is then called with `''`
   * ("something may have changed"). Resolves once listening; the returned function stops it.
   */
  listen(channel: string, fn: (payload: string) => void): Promise<() => Promise<void>>;
  /** Idempotent. Afterwards every call rejects with `closedError()` on both engines. */
  close(): Promise<void>;
  /** PGlite only: a consistent tarball of the open data directory (backups; pg_dump on PostgreSQL). */
  dumpDataDir?(): Promise<Blob>;
}

/**
 * What a closed handle throws, the same on both engines (node-postgres and PGlite word it differently):
 * SQLSTATE 08003 connection_does_not_exist, so callers can treat it as "database unavailable".
 */
export function closedError(): Error & { code: string } {
  return Object.assign(new Error('Connection terminated: the database handle is closed'), { code: '08003' });
}

/** Whether `sql` (typically `SELECT 1 … LIMIT 1`) finds a row. */
export async function rowExists(q: Queryable, sql: string, params: unknown[]): Promise<boolean> {
  return (await q.query(sql, params)).rows.length > 0;
}
