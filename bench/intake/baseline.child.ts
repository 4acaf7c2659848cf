/**
 * The baseline of bench:intake, in its own process: a plain node:http server doing the same work as
 * POST /api/estimate with nothing else: read and JSON.parse the body, call the local siteverify
 * stand-in over node:http with a keep-alive agent, as the platform's verifier does (the same LocalSiteverify protocol core, mounted on this server, as
 * the landing host mounts it on itself), then one transaction with the same SQL (advisory lock,
 * recent-duplicate SELECT, INSERT submission, INSERT outbox) on the same client library (a pg Pool
 * of 10, or PGlite on a file), and answer 201 {id}. No validation library, no framework, no logger.
 *
 * Env (set by intake.bench.ts): BENCH_DATABASE_URL (PostgreSQL) or BENCH_PGLITE_DIR (PGlite).
 * BENCH_BASELINE_VARIANT=fetch-verify (diagnosis only): the verify call with fetch instead, as the
 * platform did before its verifier moved to node:http (fetch cost ~0.7 ms of CPU per call here).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Agent, createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { PGlite } from '@electric-sql/pglite';
import { leadTags, parseFormSource } from '@platform/attribution';
import { ATTRIBUTION_FIELDS } from '@platform/contracts/attribution-fields.js';
import { LocalSiteverify } from '@platform/providers/local';
import pg from 'pg';

import {
  BENCH_TOKEN_CAPACITY,
  BENCH_VERIFY_TIMEOUT_MS,
  type ChildMessage,
  countAnswers,
  postForm,
  serveCommands,
} from './child-ipc.js';

interface Tx {
  query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}
interface Engine extends Tx {
  name: 'pg' | 'pglite';
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

async function openEngine(): Promise<Engine> {
  const url = process.env.BENCH_DATABASE_URL;
  if (url) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    pool.on('error', () => {});
    return {
      name: 'pg',
      query: (sql, params) => pool.query(sql, params),
      async transaction(fn) {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          const out = await fn(client);
          await client.query('COMMIT');
          return out;
        } catch (e) {
          await client.query('ROLLBACK').catch(() => {});
          throw e;
        } finally {
          client.release();
        }
      },
      close: () => pool.end(),
    };
  }
  const db = await PGlite.create(process.env.BENCH_PGLITE_DIR ?? '');
  return {
    name: 'pglite',
    query: (sql, params) => db.query<Record<string, unknown>>(sql, params),
    transaction: (fn) =>
      db.transaction((t) => fn({ query: (sql, params) => t.query<Record<string, unknown>>(sql, params) })),
    close: () => db.close(),
  };
}

const db = await openEngine();
await db.query(
  `INSERT INTO tenants (slug, name, is_default) VALUES ('default', 'Brightview Blinds', true) ON CONFLICT DO NOTHING`,
);
const tenant = (await db.query('SELECT id, erp_db FROM tenants WHERE is_default')).rows[0] as {
  id: string;
  erp_db: string | null;
};

const captchaSecret = randomBytes(24).toString('base64url');
const captcha = new LocalSiteverify({ secret: captchaSecret, maxTokens: BENCH_TOKEN_CAPACITY });
const ALLOWED_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const BODY_LIMIT = 16_384;
let verifyUrl = '';

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > BODY_LIMIT) reject(new HttpError(413, 'body too large'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const s = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(s),
    'cache-control': 'no-store',
  });
  res.end(s);
}

/** The verify call over node:http with a keep-alive Agent (the platform's way); fetch only as a diagnosis variant. */
const httpVerify = process.env.BENCH_BASELINE_VARIANT !== 'fetch-verify';
const agent = new Agent({ keepAlive: true });

async function verifyToken(token: string, remoteIp: string | undefined): Promise<boolean> {
  const form = new URLSearchParams({ secret: captchaSecret, response: token });
  if (remoteIp) form.set('remoteip', remoteIp);
  let v: { success?: boolean; action?: string; hostname?: string; score?: number };
  if (httpVerify) v = JSON.parse(await postForm(agent, verifyUrl, form.toString(), 'verify timed out')) as typeof v;
  else {
    const r = await fetch(verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      signal: AbortSignal.timeout(BENCH_VERIFY_TIMEOUT_MS),
    });
    v = (await r.json()) as typeof v;
  }
  return (
    v.success === true &&
    v.action === 'estimate' &&
    ALLOWED_HOSTS.has(String(v.hostname)) &&
    typeof v.score === 'number' &&
    v.score >= 0.5
  );
}

const SQL_LOCK = 'SELECT pg_advisory_xact_lock(hashtext($1))';
const SQL_RECENT = `SELECT id FROM submissions WHERE tenant_id = $1 AND fingerprint = $2
       AND created_at > now() - ($3::double precision * interval '1 second') ORDER BY created_at LIMIT 1`;
const SQL_SUBMISSION = `INSERT INTO submissions (id, tenant_id, kind, form_source, form_source_parsed, attribution, payload, fingerprint, client_ip, user_agent, gpc)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`;
const SQL_OUTBOX = `INSERT INTO outbox (tenant_id, topic, aggregate_id, dedupe_key, payload) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (tenant_id, dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING RETURNING id`;

async function estimate(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) throw new HttpError(415, 'JSON only');
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(await readBody(req)) as Record<string, unknown>;
  } catch (e) {
    throw e instanceof HttpError ? e : new HttpError(400, 'bad JSON');
  }
  if (body === null || typeof body !== 'object' || typeof body.name !== 'string') throw new HttpError(400, 'bad body');
  const { captcha_token: token, ...fields } = body;
  if (typeof token !== 'string' || !(await verifyToken(token, req.socket.remoteAddress)))
    throw new HttpError(400, 'bot check failed');

  const id = randomUUID();
  const fp = createHash('sha256')
    .update(JSON.stringify(['estimate', fields]))
    .digest('hex');
  const formSource = parseFormSource(typeof fields.form_source === 'string' ? fields.form_source : undefined);
  const attribution: Record<string, string> = {};
  for (const k of ATTRIBUTION_FIELDS)
    if (typeof fields[k] === 'string' && fields[k]) attribution[k] = fields[k] as string;
  const outboxPayload = {
    submissionId: id,
    erpDb: tenant.erp_db,
    contact: { name: fields.name, email: fields.email ?? null, phone: fields.phone ?? null, zip: fields.zip ?? null },
    products: fields.products ?? [],
    message: fields.message ?? null,
    formSource,
    attribution,
    tags: leadTags({
      formSource,
      lpSlug: (fields.lp_slug as string | undefined) ?? null,
      siteName: 'Brightview Blinds',
    }),
    gpc: req.headers['sec-gpc'] === '1',
    submittedAt: new Date().toISOString(),
  };
  const ua = typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'].slice(0, 500) : null;

  const answerId = await db.transaction(async (tx) => {
    await tx.query(SQL_LOCK, [`submission:${tenant.id}:${fp}`]);
    const earlier = (await tx.query(SQL_RECENT, [tenant.id, fp, 0])).rows[0]?.id as string | undefined;
    if (earlier) return earlier;
    await tx.query(SQL_SUBMISSION, [
      id,
      tenant.id,
      'estimate',
      formSource.raw,
      JSON.stringify(formSource),
      JSON.stringify(attribution),
      JSON.stringify(fields),
      fp,
      req.socket.remoteAddress ?? null,
      ua,
      outboxPayload.gpc,
    ]);
    await tx.query(SQL_OUTBOX, [tenant.id, 'submission.estimate', id, null, JSON.stringify(outboxPayload)]);
    return id;
  });
  send(res, 201, { id: answerId, status: 'accepted' });
}

async function mintToken(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const b = JSON.parse(await readBody(req)) as { action: string; hostname: string };
  send(res, 200, { token: captcha.mint({ action: b.action, hostname: b.hostname }) });
}

async function siteverify(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const form = new URLSearchParams(await readBody(req));
  send(
    res,
    200,
    captcha.verify({
      secret: form.get('secret') ?? undefined,
      response: form.get('response') ?? undefined,
      remoteip: form.get('remoteip') ?? undefined,
    }),
  );
}

let loggedErrors = 0;
const server = createServer((req, res) => {
  const route = req.method === 'POST' ? req.url : undefined;
  const handler =
    route === '/api/estimate'
      ? estimate
      : route === '/local-captcha/siteverify'
        ? siteverify
        : route === '/local-captcha/token'
          ? mintToken
          : undefined;
  if (!handler) return send(res, 404, { error: 'not found' });
  handler(req, res).catch((e: unknown) => {
    if (loggedErrors++ < 5) console.error(`baseline: ${req.url}: ${e instanceof Error ? e.message : String(e)}`);
    if (res.headersSent) return res.destroy();
    send(res, e instanceof HttpError ? e.status : 500, { error: e instanceof Error ? e.message : 'error' });
  });
});
// Fastify's default (72 s), not node:http's 5 s: with 5 s the server closed the verify agent's sockets
// idle between rounds, and a request racing that close failed with "socket hang up" (a 500).
server.keepAliveTimeout = 72_000;
const counter = countAnswers(server);
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
verifyUrl = `${url}/local-captcha/siteverify`;

serveCommands({
  query: (sql) => db.query(sql),
  mint: async () => captcha.mint({ action: 'estimate', hostname: 'localhost' }),
  counter,
  close: async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    await db.close();
  },
});
process.send?.({ type: 'ready', url, engine: db.name } satisfies ChildMessage);
