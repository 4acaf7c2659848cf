import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';

import { closedError, type Db, type Queryable, type QueryResult } from './db.js';
import { createPgDb } from './pg.client.js';
import { busyError, claimDataDir, liveOwner } from './pglite.owner.js';
import { servePglite } from './pglite.serve.js';
import { freshDataDirTar, prepareDataDir } from './pglite.template.js';

export interface PgliteOptions {
  /** A directory for a file-backed database, or undefined for an in-memory one (tests). */
  dataDir?: string;
  /** Serve a file-backed database to other processes (pglite.serve.ts); default true. */
  serve?: boolean;
  /** Fail when another live process owns the directory, instead of connecting to it. */
  owner?: boolean;
  /** In memory only: start from this dump (`dumpDataDir`) instead of a fresh database (tests' templates). */
  loadDataDir?: Blob;
}

/** How long a second process waits for a starting owner to publish its address. */
const OWNER_ADDRESS_WAIT_MS = 60_000;

/**
 * PGlite runs Postgres inside this process with fsync off: commits survive a process crash but not
 * a power loss. That is why PostgreSQL is the production recommendation (README).
 */
export async function createPgliteDb(opts: PgliteOptions = {}): Promise<Db> {
  const parsers = { [pgliteTypes.INT8]: (v: string) => Number(v) };
  let pg: PGlite;
  let release = async (): Promise<void> => {};
  if (opts.dataDir) {
    // Owned by another live process: use its database through the address it serves it on.
    const holder = opts.owner ? liveOwner(opts.dataDir) : undefined;
    if (holder) throw busyError(opts.dataDir, `process ${holder.pid}`);
    const served = await servedElsewhere(opts.dataDir);
    if (served) return served;
    // A new data directory starts from the prepared one (pglite.template.ts) instead of running initdb.
    await prepareDataDir(opts.dataDir);
    mkdirSync(opts.dataDir, { recursive: true });
    const claim = claimDataDir(opts.dataDir);
    let stopServing = async (): Promise<void> => {};
    release = async () => {
      try {
        await stopServing();
      } finally {
        claim.release();
      }
    };
    pg = await PGlite.create(opts.dataDir, { parsers }).catch(async (e: unknown) => {
      await release();
      throw e;
    });
    if (opts.serve !== false) {
      try {
        const server = await servePglite(pg, `${resolve(opts.dataDir)}.socket`);
        stopServing = () => server.stop();
        claim.recordAddress(server.address);
      } catch (e) {
        await pg.close().finally(release);
        throw e;
      }
    }
  } else {
    const tar = opts.loadDataDir ?? (await freshDataDirTar());
    pg = tar
      ? await PGlite.create('memory://', { parsers, loadDataDir: tar }).catch(() =>
          PGlite.create('memory://', { parsers }),
        )
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
  release: () => Promise<void>,
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
    async transaction(fn, opts) {
      open();
      return pg.transaction(async (t) => {
        if (opts?.begin) await t.exec(opts.begin);
        const tx: Queryable = {
          begun: opts?.begin,
          query: async <T>(sql: string, params?: unknown[]) => toResult<T>(await t.query(sql, params)),
          exec: async (sql: string) => void (await t.exec(sql)),
        };
        return fn(tx);
      });
    },
    async listen(channel, fn) {
      open();
      // PGlite delivers NOTIFYs of its single in-process session to every listener of the channel.
      const stop = await pg.listen(channel, fn);
      return async () => {
        if (!closed) await stop();
      };
    },
    async dumpDataDir() {
      open();
      return pg.dumpDataDir('none');
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await release(); // stop serving first: no client may hold the session while it closes
      } finally {
        await pg.close();
      }
    },
  };
}

/**
 * The database of a data directory another live process owns, through the address it serves it on
 * (one connection: PGlite has one session). Undefined when no live process owns the directory.
 */
async function servedElsewhere(dataDir: string): Promise<Db | undefined> {
  const deadline = Date.now() + OWNER_ADDRESS_WAIT_MS;
  for (let owner = liveOwner(dataDir); owner; owner = liveOwner(dataDir)) {
    if (owner.address) {
      const eq = owner.address.indexOf('=');
      const [kind, where] = [owner.address.slice(0, eq), owner.address.slice(eq + 1)];
      const url =
        kind === 'socket'
          ? `postgresql://postgres@/postgres?host=${encodeURIComponent(where)}`
          : `postgresql://postgres@${where}/postgres`;
      // One client at a time is served (PGlite has one session): another CLI may hold it briefly.
      for (let attempt = 1; ; attempt++) {
        const db = createPgDb({ url, max: 1 });
        try {
          await db.query('SELECT 1');
          return { ...db, engine: 'pglite' };
        } catch (e) {
          await db.close();
          if (attempt >= 20 || Date.now() > deadline) {
            throw new Error(
              `the PGlite data directory ${dataDir} is open in process ${owner.pid}, which serves it at ${where}, but connecting failed: ${(e as Error).message}`,
              { cause: e },
            );
          }
          await new Promise((r) => setTimeout(r, 500));
        }
      }
    }
    if (Date.now() > deadline) throw busyError(dataDir, `process ${owner.pid} (still starting)`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return undefined;
}
