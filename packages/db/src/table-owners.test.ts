/**
 * docs/table-owners.md is the one list of who owns each platform table. This holds the migrations
 * and the code to it: every table a migration creates is listed once, and SQL outside the owner's
 * folder names the table only on a documented allowed crossing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import { describe, expect, it } from 'vitest';

import { foreignSql, ownersFromDoc, tablesOfMigrations } from './table-owners.js';

const root = new URL('../../../', import.meta.url).pathname;
const doc = readFileSync(join(root, 'docs/table-owners.md'), 'utf8');
const migrationsDir = join(root, 'packages/db/migrations/platform');
const migrations = readdirSync(migrationsDir)
  .filter((f) => f.endsWith('.sql'))
  .sort()
  .map((f) => readFileSync(join(migrationsDir, f), 'utf8'));

/** Production sources of apps and packages: tests, fixtures and test kits seed tables on purpose. */
function sources(dir: string): { path: string; text: string }[] {
  const skipDir = new Set(['node_modules', 'test', 'test-support', 'testing', 'dist', 'migrations']);
  const out: { path: string; text: string }[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (!skipDir.has(e.name)) out.push(...sources(p));
    } else if (e.name.endsWith('.ts') && !/\.test\.ts$|\.fixture\.ts$|harness|test-support/.test(e.name)) {
      out.push({ path: relative(root, p), text: readFileSync(p, 'utf8') });
    }
  }
  return out;
}

describe('table owners (docs/table-owners.md)', () => {
  const { owners, duplicates, allowed } = ownersFromDoc(doc);

  it('lists every table of every migration, each once, and no table that no migration creates', () => {
    const tables = tablesOfMigrations(migrations);
    expect(duplicates).toEqual([]);
    expect(tables.filter((t) => !owners.has(t))).toEqual([]);
    expect([...owners.keys()].filter((t) => !tables.includes(t))).toEqual([]);
  });

  it('finds no SQL naming a table outside its owner, except the allowed crossings', () => {
    const files = [...sources(join(root, 'apps')), ...sources(join(root, 'packages'))];
    const found = foreignSql(files, owners);
    expect(found.filter((c) => !allowed.has(`${c.path} ${c.table}`))).toEqual([]);
    // An allowed crossing that no longer happens is removed from the page, not left to excuse a new one.
    const seen = new Set(found.map((c) => `${c.path} ${c.table}`));
    expect([...allowed].filter((a) => !seen.has(a))).toEqual([]);
  });
});

describe('the owners check itself', () => {
  const owners = new Map([
    ['tenants', 'packages/tenancy'],
    ['jobs', 'apps/control/src/features/jobs'],
  ]);

  it('reads CREATE TABLE and forgets a dropped table', () => {
    const sql = ['CREATE TABLE tenants (id uuid);\nCREATE TABLE IF NOT EXISTS old_one (x int);', 'DROP TABLE old_one;'];
    expect(tablesOfMigrations(sql)).toEqual(['tenants']);
  });

  it('flags a read, a join, an insert and an update of a foreign table, but not comments or the owner', () => {
    const files = [
      { path: 'apps/control/src/features/jobs/jobs.repo.ts', text: "q.query('SELECT 1 FROM jobs')" },
      {
        path: 'apps/control/src/features/sales/a.repo.ts',
        text: "q.query('SELECT 1 FROM x JOIN tenants t ON t.id = x.t')",
      },
      { path: 'apps/control/src/features/sales/b.repo.ts', text: "q.query('UPDATE jobs SET a = 1')" },
      {
        path: 'packages/email/src/c.ts',
        text: '// read from tenants here\nq.query(`INSERT INTO tenants (slug) VALUES ($1)`)',
      },
      { path: 'packages/email/src/d.ts', text: '/** data from jobs */ const x = 1;' },
    ];
    expect(foreignSql(files, owners)).toEqual([
      { path: 'apps/control/src/features/sales/a.repo.ts', table: 'tenants' },
      { path: 'apps/control/src/features/sales/b.repo.ts', table: 'jobs' },
      { path: 'packages/email/src/c.ts', table: 'tenants' },
    ]);
  });

  it('reports a table listed twice in the owners table', () => {
    const page = [
      '| Tables | Owner | Interface | Called by |',
      '| --- | --- | --- | --- |',
      '| `tenants` | `packages/tenancy` | x | y |',
      '| `tenants`, `jobs` | `apps/control/src/features/jobs` | x | y |',
    ].join('\n');
    expect(ownersFromDoc(page).duplicates).toEqual(['tenants']);
  });
});
