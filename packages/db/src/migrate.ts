/**
 * Ordered, numbered SQL migrations (`NNNN_verb_noun.sql`), the same files on PostgreSQL and PGlite.
 * Each file runs in its own transaction under an advisory lock, so two processes starting at once
 * apply each file exactly once.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Db } from './db.js';

export const PLATFORM_MIGRATIONS_DIR = fileURLToPath(new URL('../migrations/platform', import.meta.url));

export interface MigrateOptions {
  dir: string;
  /** Name recorded in schema_migrations, e.g. `platform` or `erp:acme`. */
  owner: string;
  /** Runs the files with this schema first on the search_path (created when missing). */
  schema?: string;
}

const FILE_RE = /^(\d{4})_[a-z0-9_]+\.sql$/;

export function listMigrations(dir: string): { version: number; name: string; sql: string }[] {
  return readdirSync(dir)
    .filter((f) => FILE_RE.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 4)), name: f, sql: readFileSync(join(dir, f), 'utf8') }));
}

export async function migrate(db: Db, opts: MigrateOptions): Promise<string[]> {
  // Under a lock too: two sessions running CREATE TABLE IF NOT EXISTS at once on PostgreSQL can both
  // miss the table and one fails with a unique violation on pg_type.
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['migrate:schema_migrations']);
    await tx.query(`CREATE TABLE IF NOT EXISTS public.schema_migrations (
      owner text NOT NULL, version integer NOT NULL, name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (owner, version))`);
  });
  const applied: string[] = [];
  // Files already recorded are skipped without a transaction each (a migrated database starts fast);
  // the others are checked again under the lock below.
  const seen = await db.query<{ version: number }>('SELECT version FROM public.schema_migrations WHERE owner = $1', [
    opts.owner,
  ]);
  const before = new Set(seen.rows.map((r) => r.version));
  for (const m of listMigrations(opts.dir).filter((x) => !before.has(x.version))) {
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`migrate:${opts.owner}`]);
      const seen = await tx.query('SELECT 1 FROM public.schema_migrations WHERE owner = $1 AND version = $2', [
        opts.owner,
        m.version,
      ]);
      if (seen.rowCount > 0) return false;
      if (opts.schema) {
        await tx.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(opts.schema)}`);
        await tx.query(`SET LOCAL search_path TO ${quoteIdent(opts.schema)}, public`);
      }
      await tx.exec(m.sql);
      await tx.query('INSERT INTO public.schema_migrations (owner, version, name) VALUES ($1, $2, $3)', [
        opts.owner,
        m.version,
        m.name,
      ]);
      return true;
    });
    if (done) applied.push(m.name);
  }
  return applied;
}

export const migratePlatform = (db: Db) => migrate(db, { dir: PLATFORM_MIGRATIONS_DIR, owner: 'platform' });

export function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe SQL identifier: ${name}`);
  return `"${name}"`;
}
