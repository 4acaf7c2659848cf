/**
 * Debian's nginx as a child process with its own prefix (never the system's /etc/nginx): start in the
 * foreground, `-t` to check a config, `-s reload` for a graceful reload (old workers finish their
 * connections), SIGQUIT for a graceful stop.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface NginxPaths {
  bin: string;
  prefix: string;
}

const args = (p: NginxPaths) => [
  '-p',
  `${p.prefix}/`,
  '-c',
  join(p.prefix, 'nginx.conf'),
  '-e',
  join(p.prefix, 'logs', 'error.log'),
];

export async function nginxTest(p: NginxPaths): Promise<void> {
  try {
    await run(p.bin, [...args(p), '-t', '-q']);
  } catch (e) {
    throw new Error(`nginx rejected the configuration: ${String((e as { stderr?: string }).stderr ?? e).trim()}`, {
      cause: e,
    });
  }
}

/** Graceful reload: nginx re-reads its configuration and certificates without dropping connections. */
export async function nginxReload(p: NginxPaths): Promise<void> {
  await nginxTest(p);
  await run(p.bin, [...args(p), '-s', 'reload']);
}

export interface RunningNginx {
  child: ChildProcess;
  reload(): Promise<void>;
  stop(): Promise<void>;
}

async function portOpen(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host, port }, () => (s.destroy(), resolve(true)));
    s.on('error', () => resolve(false));
  });
}

export async function startNginx(
  p: NginxPaths,
  ready: { host: string; port: number },
  opts: { inheritOutput?: boolean } = {},
): Promise<RunningNginx> {
  await nginxTest(p);
  const child = spawn(p.bin, [...args(p), '-g', 'daemon off;'], {
    stdio: opts.inheritOutput ? 'inherit' : ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => void (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited at start: ${stderr.trim()}`);
    if (await portOpen(ready.host, ready.port)) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  let stopping: Promise<void> | undefined;
  return {
    child,
    reload: () => nginxReload(p),
    stop: () =>
      (stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGQUIT');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      })()),
  };
}
