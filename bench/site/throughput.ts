/**
 * Requests per second of one page over keep-alive connections, asking for brotli as a browser does.
 * Client and server share the process (as the rest of bench:site), so only ratios between pages
 * measured in the same run mean anything.
 */
import { Agent, request } from 'node:http';

export interface Throughput {
  rps: number;
  requests: number;
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
  const one = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const req = request(url, { agent, headers }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`${url} (${o.host ?? 'no host'}) answered ${res.statusCode}`));
        res.on('data', () => {});
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
  return { rps: done / seconds, requests: done };
}
