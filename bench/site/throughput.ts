/**
 * Requests per second of one page over keep-alive connections, asking for brotli as a browser does.
 * Client and server share the process (as the rest of bench:site), so only ratios between pages
 * measured in the same run mean anything.
 */
import { Agent, request } from 'node:http';

import { median } from '../lighthouse.js';

export interface Throughput {
  rps: number;
  requests: number;
  /** Mean body bytes on the wire (brotli) per response. */
  bytes: number;
}

export async function measureRps(
  url: string,
  o: { host?: string; connections?: number; durationMs?: number } = {},
): Promise<Throughput> {
  const connections = o.connections ?? 16;
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const headers = { 'accept-encoding': 'br, gzip', accept: 'text/html', ...(o.host ? { host: o.host } : {}) };
  const until = performance.now() + (o.durationMs ?? 2000);
  let done = 0;
  let bytes = 0;
  const one = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const req = request(url, { agent, headers }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`${url} (${o.host ?? 'no host'}) answered ${res.statusCode}`));
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => resolve());
      });
      req.on('error', reject);
      req.end();
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        await one();
        done++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { rps: done / seconds, requests: done, bytes: Math.round(bytes / done) };
}

const RPS_ROUNDS = 3;

/** Platform home and tenant home, interleaved rounds, median requests/s of each. */
export async function compareHomes(base: string, tenantHost: string, reads: () => number): Promise<string> {
  const port = new URL(base).port;
  const tenantUrl = `http://127.0.0.1:${port}/`;
  await measureRps(`${base}/`, { durationMs: 500 });
  await measureRps(tenantUrl, { host: tenantHost, durationMs: 500 });
  const readsBefore = reads();
  const own: Throughput[] = [];
  const tenant: Throughput[] = [];
  for (let i = 0; i < RPS_ROUNDS; i++) {
    own.push(await measureRps(`${base}/`));
    tenant.push(await measureRps(tenantUrl, { host: tenantHost }));
  }
  const [o, t] = [median(own.map((x) => x.rps)), median(tenant.map((x) => x.rps))];
  const ratio = t / o;
  return (
    `Requests/s (16 keep-alive connections, br, ${RPS_ROUNDS} interleaved 2 s rounds, medians): platform home ${Math.round(o)} (${own[0]!.bytes} B br), ` +
    `tenant home ${Math.round(t)} (${tenant[0]!.bytes} B br), ratio ${ratio.toFixed(2)} -> goal (>= 0.9) ${ratio >= 0.9 ? 'met' : 'NOT met'}; ` +
    `snapshot reads during the rounds: ${reads() - readsBefore} (pages served from the per-tenant cache)`
  );
}
