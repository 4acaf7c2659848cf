/** Helpers of bench:erp: a closed-loop load runner, the ERP child process, a scratch PostgreSQL database. */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

import pg from 'pg';

export interface Load {
  rate: number;
  p50: number;
  p99: number;
  errors: number;
}

/** Keeps `concurrency` calls of `fn` in flight for `seconds`; returns completed calls per second and latency. */
export async function runLoad(seconds: number, concurrency: number, fn: () => Promise<void>): Promise<Load> {
  const lat: number[] = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        try {
          await fn();
          lat.push(performance.now() - t);
        } catch {
          errors++;
        }
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  lat.sort((a, b) => a - b);
  const at = (q: number) => lat[Math.min(lat.length - 1, Math.floor(q * lat.length))] ?? 0;
  return { rate: lat.length / elapsed, p50: at(0.5), p99: at(0.99), errors };
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const p = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return p;
}

export async function startErpChild(env: Record<string, string>): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/erp/src/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env, ERP_PORT: String(port), ERP_HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if ((await fetch(`${url}/web/health`).catch(() => null))?.ok) break;
    if (i > 600 || child.exitCode !== null) throw new Error('embedded ERP did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, stop: async () => void (child.kill('SIGTERM'), await exited) };
}

export async function scratchPg(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `bench_erp_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const a = new pg.Client({ connectionString: serverUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}
