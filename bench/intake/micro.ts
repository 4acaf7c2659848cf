/**
 * Diagnosis for bench:intake (not part of its figures): CPU cost of the per-request steps that the
 * platform does and the plain baseline does not, or does differently, measured in one process with
 * process.cpuUsage() over many iterations, interleaved in 3 passes (median shown).
 *
 *   npx tsx bench/intake/micro.ts
 */
import { createHash } from 'node:crypto';
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { createLogger } from '@platform/http-kit';
import { fingerprint } from '@platform/intake';
import Fastify from 'fastify';

import { estimateSchema } from '../../apps/landing/src/features/intake/intake.schemas.js';
import { BENCH_ATTRIBUTION } from './estimate-form.js';

const BODY = JSON.stringify({
  name: 'Bench Visitor 1',
  phone: '+1 (303) 555-0142',
  email: 'visitor.1@example.com',
  zip: '80202',
  products: ['roller-shades', 'cellular-shades', 'plantation-shutters'],
  message: 'Hello, we just moved in and would like an estimate for the living room. '.repeat(5),
  ...BENCH_ATTRIBUTION,
  captcha_token: 'local.' + 'x'.repeat(43),
});

function cpuUs(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

async function measure(n: number, fn: (i: number) => unknown): Promise<number> {
  const t = cpuUs();
  for (let i = 0; i < n; i++) {
    const r = fn(i);
    if (r instanceof Promise) await r;
  }
  return (cpuUs() - t) / n;
}

async function listen(s: Server): Promise<string> {
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

// A siteverify-shaped endpoint twice: plain node:http, and Fastify with a form parser.
const answer = JSON.stringify({
  success: true,
  score: 0.9,
  action: 'estimate',
  challenge_ts: '2026-01-01T00:00:00Z',
  hostname: 'localhost',
  'error-codes': [],
});
const plain = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(answer));
});
const plainUrl = await listen(plain);
const fast = Fastify({ logger: false });
fast.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_r, b, d) => d(null, b));
fast.post('/siteverify', async () => JSON.parse(answer) as unknown);
const fastUrl = await fast.listen({ port: 0, host: '127.0.0.1' });
const silentPino = Fastify({ loggerInstance: createLogger('silent', 'landing') as never });
silentPino.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_r, b, d) => d(null, b));
silentPino.post('/siteverify', async () => JSON.parse(answer) as unknown);
const pinoUrl = await silentPino.listen({ port: 0, host: '127.0.0.1' });

const form =
  'secret=abcdefghijklmnopqrstuvwxyz012345&response=local.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx&remoteip=127.0.0.1';
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
function httpPost(url: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': form.length },
      },
      (res) => {
        let s = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (s += c));
        res.on('end', () => resolve(JSON.parse(s)));
      },
    );
    req.on('error', reject);
    req.end(form);
  });
}
const fetchPost = async (url: string, timeout: boolean) =>
  (
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form,
      ...(timeout ? { signal: AbortSignal.timeout(3_000) } : {}),
    })
  ).json();

const parsed = JSON.parse(BODY) as Record<string, unknown>;
const logger = createLogger('silent', 'landing');
const cases: [string, number, (i: number) => unknown][] = [
  ['JSON.parse of the ~1 KB body', 20_000, () => JSON.parse(BODY)],
  ['zod estimateSchema.safeParse', 20_000, () => estimateSchema.safeParse(parsed)],
  ['fingerprint() (canonical JSON + sha256)', 20_000, () => fingerprint('estimate', parsed)],
  [
    'sha256 of JSON.stringify (baseline)',
    20_000,
    () =>
      createHash('sha256')
        .update(JSON.stringify(['estimate', parsed]))
        .digest('hex'),
  ],
  ['pino silent logger.child({reqId})', 20_000, (i) => logger.child({ reqId: String(i) })],
  [
    'verify call: fetch + AbortSignal.timeout -> Fastify (silent pino)',
    1_500,
    () => fetchPost(`${pinoUrl}/siteverify`, true),
  ],
  [
    'verify call: fetch + AbortSignal.timeout -> Fastify (logger off)',
    1_500,
    () => fetchPost(`${fastUrl}/siteverify`, true),
  ],
  ['verify call: fetch + AbortSignal.timeout -> node:http', 1_500, () => fetchPost(`${plainUrl}/siteverify`, true)],
  ['verify call: fetch, no timeout -> node:http', 1_500, () => fetchPost(`${plainUrl}/siteverify`, false)],
  ['verify call: http.request keep-alive Agent -> node:http', 1_500, () => httpPost(`${plainUrl}/siteverify`)],
];
const results = new Map<string, number[]>();
for (let pass = 0; pass < 4; pass++) {
  for (const [name, n, fn] of cases) {
    const us = await measure(pass === 0 ? Math.ceil(n / 5) : n, fn);
    if (pass > 0) results.set(name, [...(results.get(name) ?? []), us]);
  }
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
console.log('CPU µs per call (client and server side both in this process), median of 3 passes after a warm-up pass');
for (const [name] of cases) console.log(`${med(results.get(name)!).toFixed(1).padStart(8)}  ${name}`);
await fast.close();
await silentPino.close();
plain.close();
agent.destroy();
