/**
 * Listening ports named by the variable that sets them, so a busy port stops start-up with a sentence
 * an operator can act on ("WORKER_METRICS_PORT 9464 is in use on 127.0.0.1; set WORKER_METRICS_PORT to
 * a free port or 0") instead of a raw EADDRINUSE stack. The message is a ConfigError: runService prints
 * it without a stack and exits 1.
 */
import { createServer } from 'node:net';

import { ConfigError } from '@platform/kernel';

export interface NamedPort {
  /** The environment variable that sets the port, e.g. `LANDING_PORT`. */
  variable: string;
  host: string;
  port: number;
}

interface ListenFailure {
  code?: unknown;
  port?: unknown;
}

function sentence(p: NamedPort, code: unknown): string {
  const where = `${p.variable} ${p.port}`;
  if (code === 'EACCES')
    return `${where} cannot be opened on ${p.host} (permission denied: ports below 1024 need privileges); set ${p.variable} to a free port of 1024 or more, or 0`;
  if (code === 'EADDRNOTAVAIL') return `${where}: ${p.host} is not an address of this machine; check the host setting`;
  return `${where} is in use on ${p.host}; set ${p.variable} to a free port or 0`;
}

const LISTEN_CODES = new Set(['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL']);

/** The ConfigError for a listen failure on `p`, or undefined when `e` is some other error. */
export function namedPortError(p: NamedPort, e: unknown): ConfigError | undefined {
  const f = (e ?? {}) as ListenFailure;
  if (!LISTEN_CODES.has(String(f.code))) return undefined;
  if (f.port !== undefined && Number(f.port) !== p.port) return undefined; // another listener's failure
  return new ConfigError(sentence(p, f.code));
}

/** Runs `start` (which listens on `p`); its listen failure on that port becomes the named ConfigError. */
export async function onNamedPort<T>(p: NamedPort, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (e) {
    if (p.port === 0) throw e;
    throw namedPortError(p, e) ?? e;
  }
}

async function tryListen(p: NamedPort): Promise<unknown> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', (e) => resolve(e));
    server.listen({ port: p.port, host: p.host, exclusive: true }, () => server.close(() => resolve(undefined)));
  });
}

/**
 * Before anything starts: every fixed port (0 means any free port and is skipped) can be listened on,
 * and no two variables share one. Throws one ConfigError naming every problem, so nothing is
 * half-started when it fails.
 */
export async function assertPortsFree(ports: readonly NamedPort[]): Promise<void> {
  const problems: string[] = [];
  // Two services given one port each pass the check alone, and the second would fail once the first listens.
  const byPort = new Map<number, string[]>();
  for (const p of ports) if (p.port !== 0) byPort.set(p.port, [...(byPort.get(p.port) ?? []), p.variable]);
  for (const [port, vars] of byPort)
    if (vars.length > 1) problems.push(`${vars.join(' and ')} share port ${port}; give each its own port (or 0)`);
  for (const p of ports) {
    if (p.port === 0) continue;
    const e = await tryListen(p);
    if (e) problems.push(namedPortError(p, e)?.message ?? `${p.variable} ${p.port}: ${String(e)}`);
  }
  if (problems.length === 1) throw new ConfigError(problems[0]!);
  if (problems.length > 1) throw new ConfigError(`Ports unavailable:\n${problems.map((m) => `  ${m}`).join('\n')}`);
}
