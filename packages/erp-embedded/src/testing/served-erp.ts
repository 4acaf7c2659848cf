/**
 * Test support: a real embedded ERP served over Odoo's JSON-RPC on a loopback port
 * (jsonrpc-host.ts), reached through the same Odoo JSON-RPC adapter the worker uses. Its database is
 * a createTestDb (PGlite in memory, or a scratch PostgreSQL database with TEST_DATABASE_URL); the
 * ERP database gets an admin and a "platform integration" API key, as the ERP host provisions them.
 */
import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { createTestDb, type Db } from '@platform/db';
import { createOdooErp, type Erp } from '@platform/erp';
import { freePort } from '@platform/http-kit/free-port';

import { defaultRegistry, EmbeddedErp, type Registry } from '../index.js';
import { createJsonRpcHost } from './jsonrpc-host.js';

export interface TestErp {
  /** The ERP database name (ERP_DB). */
  dbName: string;
  /** The admin's API key (ERP_API_KEY). */
  apiKey: string;
  /** Where the ERP listens, or will listen (the port is fixed at creation). */
  url: string;
  /** An Odoo JSON-RPC adapter logged in as admin with the API key. */
  erp: Erp;
  embedded: EmbeddedErp;
  /** The database the embedded ERP keeps its schemas in. */
  db: Db;
  /** Starts serving HTTP (again) on `url`. */
  listen(): Promise<void>;
  /** Stops serving HTTP; the database stays. */
  stop(): Promise<void>;
  /** Stops serving; startTestErp's also drops the database (unless it was given). */
  close(): Promise<void>;
}

export { freePort };

/** The default registry without some fields of one model (an ERP lacking custom fields). */
export function registryWithout(model: string, fields: string[]): Registry {
  const r = defaultRegistry();
  for (const name of fields) r.get(model).fields.delete(name);
  return r;
}

export interface TestErpOptions {
  /** Models of the ERP (default: the embedded ERP's own). */
  registry?: Registry;
  /** false: only reserve the port; call listen() later (an ERP that is down at first). */
  listen?: boolean;
  /** The ERP database name (default `platform`). */
  dbName?: string;
  /** Keep the ERP in this database (e.g. the platform's, or another TestErp's) instead of a new one. */
  db?: Db;
  /** Master password of the `db` service (create_database, drop...); unset: refused. */
  masterPassword?: string;
}

export async function startTestErp(opts: TestErpOptions = {}): Promise<TestErp> {
  // A fresh PGlite is slow to boot: tests may share one database between ERP databases and the platform.
  const t = opts.db ? { db: opts.db, drop: async () => {} } : await createTestDb();
  const dbName = opts.dbName ?? 'platform';
  try {
    const embedded = new EmbeddedErp(t.db, {
      ...(opts.registry ? { registry: opts.registry } : {}),
      ...(opts.masterPassword ? { masterPassword: opts.masterPassword } : {}),
    });
    await embedded.createDatabase(dbName, { adminPassword: randomBytes(12).toString('base64url') });
    const { key: apiKey } = await embedded.createApiKey(dbName, 'admin', 'platform integration');
    const erp = await serve({ dbName, apiKey, embedded, db: t.db }, opts.listen);
    return { ...erp, close: () => erp.stop().finally(() => t.drop()) };
  } catch (e) {
    await t.drop();
    throw e;
  }
}

/**
 * The same ERP (database, API key) served on another port; `listen: false` gives an ERP that is
 * down until its listen(). close() only stops serving.
 */
export function serveAgain(base: TestErp, opts: { listen?: boolean } = {}): Promise<TestErp> {
  return serve(base, opts.listen);
}

async function serve(e: Pick<TestErp, 'dbName' | 'apiKey' | 'embedded' | 'db'>, listen = true): Promise<TestErp> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let server: Server | undefined;
  const stop = async () => {
    const s = server;
    server = undefined;
    // Like Fastify's close(): no new connections, idle keep-alive ones closed, in-flight calls finish.
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  const erp: TestErp = {
    ...e,
    url,
    erp: createOdooErp({ url, db: e.dbName, login: 'admin', secret: e.apiKey, timeoutMs: 20_000 }),
    async listen() {
      if (server) return;
      const s = createJsonRpcHost(e.embedded);
      server = s;
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(port, '127.0.0.1', () => resolve());
      });
    },
    stop,
    close: stop,
  };
  if (listen) await erp.listen();
  return erp;
}

/**
 * An HTTP proxy in front of `target` that holds every request until `open()` is called: a slow ERP,
 * so a test can act while a delivery is in flight.
 */
export async function gatedProxy(target: string): Promise<{ url: string; open(): void; close(): Promise<void> }> {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        await gate;
        const r = await fetch(`${target}${req.url ?? '/'}`, {
          method: req.method ?? 'POST',
          headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
          ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body: Buffer.concat(chunks) }),
        });
        res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
        res.end(Buffer.from(await r.arrayBuffer()));
      })().catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    open,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls `probe` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(
  probe: () => Promise<T | undefined | false>,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
