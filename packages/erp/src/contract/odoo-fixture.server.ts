/**
 * Replays recorded Odoo 15 wire fixtures (packages/erp/fixtures/odoo15/*.json) over HTTP on
 * 127.0.0.1. A request is answered by the first fixture whose path matches and whose JSON-RPC
 * `params` (service, method, args: so db, uid, secret, model, method, args, kwargs) are deeply
 * equal to the recorded ones; the JSON-RPC `id` is echoed. Anything else gets HTTP 500 and is
 * listed in `unmatched`, so a test can show which call had no fixture.
 */
import { readdir, readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

export interface OdooFixture {
  /** File name, filled by loadOdooFixtures. */
  file?: string;
  description?: string;
  source?: string;
  /** The embedded ERP must answer these exact bytes (deterministic answers only). */
  exact?: boolean;
  request: {
    /** Defaults to `/jsonrpc`. */
    path?: string;
    /** Match any body on this path (used for the HTTP 404 fixture). */
    anyBody?: boolean;
    body?: { params?: unknown };
    /** An XML-RPC call, matched on its decoded method name and params. */
    xml?: { methodName: string; params: unknown[] };
    /** The `session_id` cookie the request must carry (null: none); any when absent. */
    sessionId?: string | null;
  };
  response: {
    status?: number;
    headers?: Record<string, string>;
    /** JSON body; its `id` member, when present, is replaced by the request's id. */
    body?: unknown;
    /** Raw text body, for non-JSON answers (proxy error pages). */
    text?: string;
    /** Delay before answering, to exercise timeouts. */
    delayMs?: number;
  };
}

export const ODOO15_FIXTURES_DIR = fileURLToPath(new URL('../../fixtures/odoo15/', import.meta.url));

export async function loadOdooFixtures(dir: string = ODOO15_FIXTURES_DIR): Promise<Map<string, OdooFixture>> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  const out = new Map<string, OdooFixture>();
  for (const file of files) {
    const fx = JSON.parse(await readFile(`${dir}/${file}`, 'utf8')) as OdooFixture;
    out.set(file.replace(/\.json$/, ''), { ...fx, file });
  }
  return out;
}

export interface OdooFixtureServer {
  url: string;
  /** Requests that matched no fixture (path and parsed body). */
  unmatched: Array<{ path: string; body: unknown }>;
  /** Fixture file names in the order they were served. */
  served: string[];
  close(): Promise<void>;
}

export async function startOdooFixtureServer(fixtures: Iterable<OdooFixture>): Promise<OdooFixtureServer> {
  const list = [...fixtures];
  const unmatched: OdooFixtureServer['unmatched'] = [];
  const served: string[] = [];

  const server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const raw = await readBody(req);
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
      const params = isObject(body) ? body.params : undefined;
      const xml =
        typeof body === 'string' && body.trimStart().startsWith('<')
          ? await decodeXmlCall(body).catch(() => undefined)
          : undefined;
      const sessionId = /(?:^|;\s*)session_id=([^;]*)/.exec(req.headers.cookie ?? '')?.[1] || null;
      const fx = list.find(
        (f) =>
          (f.request.path ?? '/jsonrpc') === path &&
          (f.request.sessionId === undefined || f.request.sessionId === sessionId) &&
          (f.request.anyBody ||
            (f.request.xml ? deepEqual(f.request.xml, xml) : deepEqual(f.request.body?.params, params))),
      );
      if (!fx) {
        unmatched.push({ path, body });
        res.writeHead(500, { 'content-type': 'text/plain' }).end('no fixture matches this request');
        return;
      }
      served.push(fx.file ?? fx.description ?? '?');
      const r = fx.response;
      if (r.delayMs) await new Promise((ok) => setTimeout(ok, r.delayMs));
      if (res.destroyed) return;
      if (r.text !== undefined) {
        res.writeHead(r.status ?? 200, { 'content-type': 'text/html', ...r.headers }).end(r.text);
        return;
      }
      const out = isObject(r.body) && 'id' in r.body && isObject(body) ? { ...r.body, id: body.id ?? null } : r.body;
      res.writeHead(r.status ?? 200, { 'content-type': 'application/json', ...r.headers }).end(JSON.stringify(out));
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });

  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    unmatched,
    served,
    close: () =>
      new Promise<void>((ok, fail) => {
        server.closeAllConnections();
        server.close((e) => (e ? fail(e) : ok()));
      }),
  };
}

const require = createRequire(import.meta.url);
type XmlDeserializer = new () => {
  deserializeMethodCall(stream: Readable, cb: (err: unknown, methodName: string, params: unknown[]) => void): void;
};

/** Decoded with the `xmlrpc` package (the npm clients' codec), independent of the ERP's own. */
function decodeXmlCall(text: string): Promise<{ methodName: string; params: unknown[] }> {
  const Deserializer = require('xmlrpc/lib/deserializer') as XmlDeserializer;
  return new Promise((ok, fail) =>
    new Deserializer().deserializeMethodCall(Readable.from([text]), (err, methodName, params) =>
      err ? fail(err) : ok({ methodName, params }),
    ),
  );
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Structural equality of JSON values; object key order does not matter. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && deepEqual(a[k], b[k]));
  }
  return false;
}
