/** Timing helpers of bench:control: latency samples of two calls taken in alternation, and their ratio. */
import { Agent, request as httpRequest } from 'node:http';
import { performance } from 'node:perf_hooks';

export interface Stats {
  p50: number;
  p95: number;
  mean: number;
}

export function stats(ms: number[]): Stats {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return { p50: at(0.5), p95: at(0.95), mean: s.reduce((x, y) => x + y, 0) / s.length };
}

/**
 * Runs `a` and `b` one after the other `n` times (after `warm` unmeasured pairs), alternating which
 * goes first, so drift in the machine's load falls on both alike. One call at a time: latency, not throughput.
 */
export async function alternate(
  n: number,
  warm: number,
  a: () => Promise<void>,
  b: () => Promise<void>,
): Promise<[number[], number[]]> {
  const ta: number[] = [];
  const tb: number[] = [];
  const time = async (fn: () => Promise<void>, into: number[] | undefined) => {
    const t0 = performance.now();
    await fn();
    into?.push(performance.now() - t0);
  };
  for (let i = 0; i < warm + n; i++) {
    const measured = i >= warm;
    if (i % 2) {
      await time(a, measured ? ta : undefined);
      await time(b, measured ? tb : undefined);
    } else {
      await time(b, measured ? tb : undefined);
      await time(a, measured ? ta : undefined);
    }
  }
  return [ta, tb];
}

const f = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`);

export function report(label: string, subject: string, s: Stats, baseline: string, b: Stats): void {
  console.log(`${label}`);
  console.log(`  ${subject.padEnd(34)} p50 ${f(s.p50).padStart(9)}  p95 ${f(s.p95).padStart(9)}`);
  console.log(`  ${baseline.padEnd(34)} p50 ${f(b.p50).padStart(9)}  p95 ${f(b.p95).padStart(9)}`);
  console.log(
    `  ratio: p50 ${(s.p50 / b.p50).toFixed(2)}x, p95 ${(s.p95 / b.p95).toFixed(2)}x; cost per request (p50) ${f(s.p50 - b.p50)}`,
  );
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 });

/** One HTTP call over a keep-alive agent (fetch may not set Host); resolves to status and body. */
export function call(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: opts.method ?? 'GET', headers: opts.headers ?? {}, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

export const closeAgent = () => agent.destroy();

/** The JSON-RPC body of one `execute_kw` on a served test ERP (a baseline call made without the port). */
export async function executeKwBody(
  erp: { dbName: string; apiKey: string; erp: { authenticate(): Promise<number> } },
  model: string,
  method: string,
  args: unknown[],
  kwargs: Record<string, unknown>,
): Promise<string> {
  const uid = await erp.erp.authenticate();
  return JSON.stringify({
    jsonrpc: '2.0',
    method: 'call',
    params: {
      service: 'object',
      method: 'execute_kw',
      args: [erp.dbName, uid, erp.apiKey, model, method, args, kwargs],
    },
  });
}
