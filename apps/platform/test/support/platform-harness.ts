/** Helpers for whole-platform tests: free ports, posting forms with fresh bot-check tokens, child processes. */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export { freePort } from '@platform/http-kit/free-port';

const run = promisify(execFile);

export async function postForm(
  landingUrl: string,
  path: string,
  action: string,
  body: Record<string, unknown>,
): Promise<{ status: number; body: any }> {
  const t = await fetch(`${landingUrl}/local-captcha/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action, hostname: 'localhost' }),
  });
  const { token } = (await t.json()) as { token: string };
  const r = await fetch(`${landingUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, captcha_token: token }),
  });
  return { status: r.status, body: await r.json() };
}

export async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let lastErr: unknown;
  while (Date.now() < end) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (e) {
      lastErr = e;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`timed out waiting for ${what}${lastErr ? `: ${String(lastErr)}` : ''}`);
}

export interface PlatformProcess {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

const spawned = new Set<ChildProcess>();

/** Kills every child this file started that is still running (a failed or timed-out test leaves none behind). */
export function killSpawned(): void {
  for (const c of spawned) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  spawned.clear();
}

/** Runs `npm start`'s entry point in a child process with the given environment. */
export function spawnPlatform(env: Record<string, string>): PlatformProcess {
  return spawnService('apps/platform/src/main.ts', env);
}

/** Runs one service's entry point (e.g. `apps/landing/src/main.ts`) in a child process. */
export function spawnService(entry: string, env: Record<string, string>): PlatformProcess {
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: ROOT,
    // The docs site and the backup schedule are npm start's extras: off unless a test asks for them.
    env: {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: 'warn',
      DOCS: 'off',
      BACKUP_INTERVAL_H: '0',
      CONTROL_PORT: '0',
      FRONTEND_PORT: '0',
      // 0 = no worker metrics listener: its default port is fixed, and test platforms run side by side.
      WORKER_METRICS_PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  spawned.add(child);
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, output: () => out, exited };
}

export async function httpOk(url: string): Promise<true | undefined> {
  const r = await fetch(url).catch(() => undefined);
  return r?.ok ? true : undefined;
}

/** Runs `npm start` with `env` and resolves once the landing host on `landingPort` answers /health. */
export async function startPlatform(env: Record<string, string>, landingPort: number): Promise<PlatformProcess> {
  const platform = spawnPlatform(env);
  await waitFor('platform start', () => httpOk(`http://127.0.0.1:${landingPort}/health`), 180_000);
  return platform;
}

/** Stops the platform (SIGTERM, then waits for its exit), kills any other child left, removes `dataDir`. */
export async function stopPlatform(platform: PlatformProcess | undefined, dataDir: string | undefined): Promise<void> {
  platform?.child.kill('SIGTERM');
  await platform?.exited;
  killSpawned();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a CLI script under tsx from the repository root, as an operator would: its exit code and output, never a throw. */
export async function runCli(
  script: string,
  args: string[],
  env: Record<string, string>,
  opts: { stdin?: string; timeoutMs: number },
): Promise<CliResult> {
  try {
    const p = run(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
      timeout: opts.timeoutMs,
    });
    p.child.stdin!.end(opts.stdin ?? '');
    const { stdout, stderr } = await p;
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as CliResult;
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}
