/**
 * Debian's nginx as a child process with its own prefix (never the system's /etc/nginx): start in the
 * foreground, `-t` to check a config, `-s reload` for a graceful reload (old workers finish their
 * connections), SIGQUIT for a graceful stop.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
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

/** The master's child processes and their titles (nginx sets them), from /proc; empty where there is none. */
function childTitles(masterPid: number): Map<number, string> {
  const titles = new Map<number, string>();
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return titles;
  }
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the parenthesised command name: state, then the parent's pid.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === masterPid)
        titles.set(Number(pid), readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim());
    } catch {
      // The process ended while we looked.
    }
  }
  return titles;
}

const accepting = (title: string | undefined) =>
  !!title && title.includes('worker process') && !title.includes('shutting down');

function masterPid(prefix: string): number | undefined {
  try {
    return Number(readFileSync(join(prefix, 'nginx.pid'), 'utf8').trim()) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Graceful reload: nginx re-reads its configuration and certificates without dropping connections.
 * `-s reload` only signals the master, and until each old worker has taken its own signal it keeps
 * accepting new connections with the old configuration; so this waits (up to 5 s) until the old
 * workers have stopped accepting, and "reloaded" means the next connection sees the new configuration.
 */
export async function nginxReload(p: NginxPaths): Promise<void> {
  await nginxTest(p);
  const master = masterPid(p.prefix);
  const old = master ? [...childTitles(master)].filter(([, t]) => accepting(t)).map(([pid]) => pid) : [];
  await run(p.bin, [...args(p), '-s', 'reload']);
  for (let waited = 0; master && old.length > 0 && waited < 5000; waited += 20) {
    const now = childTitles(master);
    if (old.every((pid) => !accepting(now.get(pid)))) return;
    await new Promise((r) => setTimeout(r, 20));
  }
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
