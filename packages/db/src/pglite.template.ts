/**
 * A prepared PGlite data directory, so a new database skips initdb. initdb is most of the cost of a new
 * PGlite (measured here: 8-40 s under load, against under 2 s to load this tarball), and every test file
 * and every first start would otherwise pay it. The tarball is PGlite's own `dumpDataDir` of a fresh,
 * untouched database, kept per PGlite version in node_modules/.cache (owned by whoever installed the
 * repository, unlike /tmp). Anything going wrong here falls back to a plain initdb.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { PGlite } from '@electric-sql/pglite';

/** A file in this PGlite version's cache: <node_modules>/.cache/platform-pglite/<prefix>-<version><suffix>.tar. */
function cacheFile(prefix: string, suffix = ''): string | undefined {
  try {
    const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const { version } = JSON.parse(readFileSync(join(dist, '..', 'package.json'), 'utf8')) as { version: string };
    // <node_modules>/@electric-sql/pglite/dist -> <node_modules>/.cache
    return join(dist, '..', '..', '..', '.cache', 'platform-pglite', `${prefix}-${version}${suffix}.tar`);
  } catch {
    return undefined;
  }
}

/**
 * A cached dump: read from its file, or built and stored the first time. Written aside and renamed,
 * so concurrent builders never expose a half-written file. Without a cache file it is only built.
 */
export async function cachedTar(prefix: string, suffix: string, build: () => Promise<Blob>): Promise<Blob> {
  const file = cacheFile(prefix, suffix);
  if (file) {
    try {
      return new Blob([await readFile(file)]);
    } catch {
      // not built yet
    }
  }
  const tar = await build();
  if (file) {
    await mkdir(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    await writeFile(tmp, Buffer.from(await tar.arrayBuffer()));
    await rename(tmp, file);
  }
  return tar;
}

let cached: Promise<Blob | undefined> | undefined;

/** The tarball of a fresh data directory, built (one initdb) and stored the first time. */
export function freshDataDirTar(): Promise<Blob | undefined> {
  cached ??= cachedTar('pgdata', '', async () => {
    const pg = await PGlite.create('memory://');
    try {
      return await pg.dumpDataDir('none');
    } finally {
      await pg.close();
    }
  }).catch(() => undefined);
  return cached;
}

const isFreshDir = (dir: string) => !existsSync(dir) || readdirSync(dir).length === 0;

/**
 * Fills a new, empty data directory from the tarball. The files are unpacked in a sibling directory and
 * renamed into place, so `dir` is either untouched or a complete data directory.
 */
export async function prepareDataDir(dir: string): Promise<void> {
  if (!isFreshDir(dir)) return;
  const tar = await freshDataDirTar();
  if (!tar) return;
  const staging = `${dir}.init-${randomBytes(4).toString('hex')}`;
  try {
    await mkdir(dirname(dir), { recursive: true });
    const pg = await PGlite.create(staging, { loadDataDir: tar });
    await pg.close();
    if (!isFreshDir(dir)) return; // someone else got there first
    await rm(dir, { recursive: true, force: true });
    await rename(staging, dir);
  } catch {
    // PGlite runs initdb in `dir` instead.
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
