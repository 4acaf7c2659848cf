/**
 * A PGlite data directory belongs to one database instance at a time: a second opener (another
 * process, or a second instance in this one) would corrupt it. An owner file names the holder's pid
 * and the address where it serves the database (pglite.serve.ts); another process finding a live
 * holder connects there instead, and a dead holder (kill -9) is taken over.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const OWNER_FILE = 'platform.owner';
const heldHere = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface LiveOwner {
  pid: number;
  /** `socket=<directory>` or `tcp=<host>:<port>`; undefined while the owner is still starting. */
  address: string | undefined;
}

/** The live process (other than this one) holding `dir`, if any. */
export function liveOwner(dir: string): LiveOwner | undefined {
  const file = join(resolve(dir), OWNER_FILE);
  if (!existsSync(file)) return undefined;
  const [pidLine = '', address] = readFileSync(file, 'utf8').split('\n');
  const pid = Number(pidLine.trim());
  if (!Number.isInteger(pid) || pid === process.pid || !alive(pid)) return undefined;
  return { pid, address: address?.trim() || undefined };
}

/** code DATA_DIR_BUSY: service mains print it as a message, not a stack trace. */
export function busyError(dir: string, who: string): Error & { code: string } {
  const message = `the PGlite data directory ${dir} is already open in ${who}; one process at a time (stop it first, or use PostgreSQL with DATABASE_URL)`;
  return Object.assign(new Error(message), { code: 'DATA_DIR_BUSY' });
}

export function claimDataDir(dir: string): { release(): void; recordAddress(address: string): void } {
  const key = resolve(dir);
  const file = join(key, OWNER_FILE);
  if (heldHere.has(key)) throw busyError(dir, 'this process');
  const holder = liveOwner(dir);
  if (holder) throw busyError(dir, `process ${holder.pid}`);
  writeFileSync(file, `${process.pid}\n`);
  heldHere.add(key);
  return {
    recordAddress: (address) => writeFileSync(file, `${process.pid}\n${address}\n`),
    release: () => {
      heldHere.delete(key);
      rmSync(file, { force: true });
    },
  };
}
