/**
 * The process owning a PGlite data directory serves it over the PostgreSQL wire protocol, so the
 * CLIs (`npm run restapi`, `erp`, `integrations`, `outbox`, `migrate`) work while the platform runs:
 * they find the address in the owner file (pglite.owner.ts) and connect with node-postgres.
 *
 * The address is a unix socket in a directory beside the data (mode 0700: only the user owning
 * DATA_DIR can connect), or loopback TCP when that path is too long for a unix socket. PGlite has a
 * single session, shared by this process and the socket's client, so a client's transaction (or an
 * extended-protocol message group up to its Sync) holds PGlite's transaction lock: the owner's own
 * queries wait for it instead of running inside the client's transaction.
 */
import { chmodSync, mkdirSync, rmSync } from 'node:fs';

import type { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/** Unix socket paths longer than this do not fit sockaddr_un on every platform. */
const MAX_SOCKET_PATH = 100;
/** A client that holds the lock this long without sending anything is rolled back and released. */
const STALLED_CLIENT_MS = 30_000;
export const SOCKET_FILE = '.s.PGSQL.5432';

export interface ServedPglite {
  /** `socket=<directory>` or `tcp=127.0.0.1:<port>`, as recorded in the owner file. */
  address: string;
  stop(): Promise<void>;
}

/** Message types after which the client may be between statements (Sync, simple Query, Terminate). */
const ENDS_EXCHANGE = new Set(['S', 'Q', 'X', 'startup']);

export async function servePglite(pg: PGlite, socketDir: string): Promise<ServedPglite> {
  const guarded = guardSession(pg);
  const unix = `${socketDir}/${SOCKET_FILE}`.length <= MAX_SOCKET_PATH;
  if (unix) {
    mkdirSync(socketDir, { recursive: true, mode: 0o700 });
    chmodSync(socketDir, 0o700); // also when left behind by a killed owner
    rmSync(`${socketDir}/${SOCKET_FILE}`, { force: true }); // left by a killed owner
  }
  const server = new PGLiteSocketServer({
    db: guarded.db,
    ...(unix ? { path: `${socketDir}/${SOCKET_FILE}` } : { host: '127.0.0.1', port: 0 }),
    // One client at a time: PGlite has one session, and the queue cannot keep two clients'
    // extended-protocol exchanges apart outside a transaction block.
    maxConnections: 1,
  });
  await server.start();
  const address = unix ? `socket=${socketDir}` : `tcp=${server.getServerConn()}`;
  return {
    address,
    async stop() {
      await server.stop();
      await guarded.release();
      if (unix) rmSync(socketDir, { recursive: true, force: true });
    },
  };
}

/**
 * A view of the PGlite for the socket server whose `runExclusive` also takes PGlite's transaction
 * lock (the one `query`, `exec` and `transaction` take) and keeps it until the client is idle again.
 */
function guardSession(pg: PGlite) {
  let held: (() => void) | undefined;
  let stallTimer: NodeJS.Timeout | undefined;
  let lastType: string | undefined;
  const internals = pg as unknown as { _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T> };
  const acquire = () =>
    new Promise<void>((acquired) => {
      void internals._runExclusiveTransaction(
        () =>
          new Promise<void>((release) => {
            held = release;
            acquired();
          }),
      );
    });
  const letGo = () => {
    clearTimeout(stallTimer);
    const release = held;
    held = undefined;
    release?.();
  };
  const rollbackAndRelease = async () => {
    if (!held) return;
    await pg.runExclusive(async () => {
      if (pg.isInTransaction()) await pg.execProtocolRaw(simpleQuery('ROLLBACK'), { syncToFs: false });
      else await pg.execProtocolRaw(new Uint8Array([0x53, 0, 0, 0, 4]), { syncToFs: false }); // Sync
    });
    letGo();
  };
  const db = new Proxy(pg, {
    get(target, prop) {
      if (prop === 'execProtocolRawStream') {
        return (message: Uint8Array, opts: Parameters<PGlite['execProtocolRawStream']>[1]) => {
          lastType = messageType(message);
          return target.execProtocolRawStream(message, opts);
        };
      }
      if (prop === 'runExclusive') {
        return async <T>(fn: () => Promise<T>) => {
          if (!held) await acquire();
          clearTimeout(stallTimer);
          lastType = undefined;
          try {
            return await target.runExclusive(fn);
          } finally {
            if (!target.isInTransaction() && lastType && ENDS_EXCHANGE.has(lastType)) letGo();
            else stallTimer = setTimeout(() => void rollbackAndRelease(), STALLED_CLIENT_MS).unref();
          }
        };
      }
      // The server rolls back a disconnected client's transaction with exec('ROLLBACK'): run it on
      // the session directly (the client holds the lock), then let the owner go on. A no-op when
      // the open transaction is the owner's own.
      if (prop === 'exec') return async () => rollbackAndRelease();
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { db, release: rollbackAndRelease };
}

/** The first byte names a message; the startup message has none (length, then protocol 3.0). */
function messageType(message: Uint8Array): string {
  if (message.length >= 8 && new DataView(message.buffer, message.byteOffset).getInt32(4) === 196608) return 'startup';
  return String.fromCharCode(message[0]!);
}

function simpleQuery(sql: string): Uint8Array {
  const body = Buffer.from(`${sql}\0`, 'utf8');
  const out = Buffer.alloc(5 + body.length);
  out.write('Q', 0);
  out.writeInt32BE(4 + body.length, 1);
  body.copy(out, 5);
  return out;
}
