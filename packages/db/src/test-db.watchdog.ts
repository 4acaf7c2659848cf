/**
 * Drops a scratch database when the test process that created it ends, however it ends: a test file
 * that forgot `drop()`, a crash, a timeout kill. Vitest runs each test file in its own process, so this
 * is "dropped after each test file" without relying on every file's afterAll.
 *
 * The watchdog is a small detached node process holding the read end of a pipe from the test process:
 * the pipe closes when the test process exits (the OS closes its descriptors), and the watchdog then
 * runs DROP DATABASE ... WITH (FORCE). A normal `drop()` stops the watchdog first.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';

const SCRIPT = `
const [server, name, pgPath] = process.argv.slice(1);
let done = false;
const dropIt = async () => {
  if (done) return;
  done = true;
  const { Client } = require(pgPath);
  const c = new Client({ connectionString: server });
  try {
    await c.connect();
    await c.query('DROP DATABASE IF EXISTS "' + name + '" WITH (FORCE)');
  } catch {} finally {
    await c.end().catch(() => {});
  }
  process.exit(0);
};
process.stdin.on('end', dropIt);
process.stdin.on('close', dropIt);
process.stdin.on('error', dropIt);
process.stdin.resume();
`;

export interface Watchdog {
  /** The database was dropped normally: stop watching. */
  cancel(): void;
}

export function watchScratchDatabase(server: string, name: string): Watchdog {
  let child: ChildProcess | undefined;
  try {
    const pgPath = createRequire(import.meta.url).resolve('pg');
    child = spawn(process.execPath, ['-e', SCRIPT, server, name, pgPath], {
      detached: true, // its own process group: a kill aimed at the test process's group misses it
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    child.on('error', () => {});
    // Neither the child nor the pipe may keep the test process alive.
    child.unref();
    (child.stdin as Socket | null)?.unref();
  } catch {
    child = undefined; // no watchdog: the afterAll drop and the stale sweep remain
  }
  return {
    cancel() {
      child?.kill();
      child = undefined;
    },
  };
}
