/**
 * How each engine is dumped and restored. PostgreSQL: one `pg_dump -Fc` of DATABASE_URL holds the
 * platform tables and every tenant's ERP database (each an `erp_<name>` schema of it); restore is
 * `pg_restore --clean --if-exists`. PGlite: each data directory (platform, erp) is dumped by the
 * process that has it open (`dumpDataDir`, a consistent tarball) and restored into an empty directory
 * while nothing has it open (the platform is stopped).
 */
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';

import { PGlite } from '@electric-sql/pglite';
import type { Db } from '@platform/db';
import { tightenTree } from '@platform/kernel';

export interface DatabaseDump {
  /** Name inside the archive: `postgres` (pg_dump) or the PGlite directory name (`platform`, `erp`). */
  name: string;
  format: 'pg_dump-custom' | 'pglite-datadir-tar';
  dump(): Promise<Readable>;
}

/** `pg_dump -Fc` streamed from its stdout; the promise of its exit is checked when the stream ends. */
export function pgDump(databaseUrl: string): DatabaseDump {
  return {
    name: 'postgres',
    format: 'pg_dump-custom',
    async dump() {
      const child = spawn('pg_dump', ['-Fc', '--no-owner', '--no-privileges', `--dbname=${databaseUrl}`], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      return checkedOutput(child, 'pg_dump');
    },
  };
}

export function pgliteDump(name: string, db: Db): DatabaseDump {
  if (!db.dumpDataDir) throw new Error(`database ${name} is not a PGlite database`);
  return {
    name,
    format: 'pglite-datadir-tar',
    async dump() {
      const blob = await db.dumpDataDir!();
      return Readable.from(Buffer.from(await blob.arrayBuffer()));
    },
  };
}

export async function pgRestore(databaseUrl: string, dumpFile: string): Promise<void> {
  const child = spawn(
    'pg_restore',
    ['--clean', '--if-exists', '--no-owner', '--no-privileges', '--exit-on-error', `--dbname=${databaseUrl}`, dumpFile],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((res, rej) => child.on('error', rej).on('close', res));
  if (code !== 0) throw new Error(`pg_restore failed (exit ${code}): ${err.trim().slice(0, 500)}`);
}

/**
 * Replaces a PGlite data directory with the dumped one. The current directory is kept beside it as
 * `<dir>.before-restore-<time>` (removed by the operator), so a restore is never destructive.
 */
export async function pgliteRestore(dir: string, tarFile: string, now = new Date()): Promise<string | null> {
  let kept: string | null = null;
  if (await stat(dir).catch(() => null)) {
    kept = `${dir}.before-restore-${now.toISOString().replace(/[:.]/g, '-')}`;
    await rename(dir, kept);
  }
  try {
    const tar = new Blob([new Uint8Array(await readFileBuffer(tarFile))]);
    const pg = await PGlite.create(dir, { loadDataDir: tar });
    await pg.query('SELECT 1');
    await pg.close();
    // The dump's tar carries PGlite's own modes (files 0666): the restored directory is owner-only.
    tightenTree(dir);
  } catch (e) {
    await rm(dir, { recursive: true, force: true });
    if (kept) await rename(kept, dir);
    throw e;
  }
  return kept;
}

async function readFileBuffer(file: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of createReadStream(file)) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function checkedOutput(child: ReturnType<typeof spawn>, what: string): Readable {
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<number | null>((res, rej) => child.on('error', rej).on('close', res));
  // Pass stdout through, and fail the stream when the tool exits non-zero (a partial dump must not pass).
  return Readable.from(
    (async function* () {
      for await (const c of child.stdout!) yield c as Buffer;
      const code = await exit;
      if (code !== 0) throw new Error(`${what} failed (exit ${code}): ${err.trim().slice(0, 500)}`);
    })(),
  );
}
