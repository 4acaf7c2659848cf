/**
 * A PGlite data directory belongs to one database instance at a time: a second opener (another
 * process, or a second instance in this one) would corrupt it. An owner file names the holder's pid;
 * a live holder makes the open fail with a clear message, a dead one (kill -9) is taken over.
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

export function claimDataDir(dir: string): () => void {
  const key = resolve(dir);
  const file = join(key, OWNER_FILE);
  const holder = existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) : NaN;
  const busyElsewhere = Number.isInteger(holder) && holder !== process.pid && alive(holder);
  if (heldHere.has(key) || busyElsewhere) {
    const who = heldHere.has(key) ? 'this process' : `process ${holder}`;
    throw new Error(`the PGlite data directory ${dir} is already open in ${who}; one process at a time (stop it first, or use PostgreSQL with DATABASE_URL)`);
  }
  writeFileSync(file, `${process.pid}\n`);
  heldHere.add(key);
  return () => {
    heldHere.delete(key);
    rmSync(file, { force: true });
  };
}
