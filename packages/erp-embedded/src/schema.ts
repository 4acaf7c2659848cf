/**
 * Tables of one ERP database (a PostgreSQL schema `erp_<name>`), generated from the registry.
 * Idempotent: missing tables, columns, indexes and foreign keys are added, nothing is dropped, so
 * a new field in a model definition reaches existing databases on the next start. The catalog is
 * read once and only the missing DDL runs, as one script (a new database costs one round trip).
 */
import type { Queryable } from '@platform/db';

import { hasColumn, sqlType } from './fields.js';
import type { ModelDef, Registry } from './registry.js';

export const qi = (name: string): string => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe SQL identifier: ${name}`);
  return `"${name}"`;
};

export const qt = (schema: string, table: string) => `${qi(schema)}.${qi(table)}`;

/** PostgreSQL keeps the first 63 bytes of an identifier. */
const pgName = (name: string) => name.slice(0, 63);

function columnSql(m: ModelDef): [string, string][] {
  const cols: [string, string][] = [];
  for (const fd of m.fields.values()) {
    if (fd.name === 'id' || !hasColumn(fd)) continue;
    cols.push([fd.name, `${qi(fd.name)} ${sqlType(fd.type)}`]);
  }
  return cols;
}

interface Catalog {
  columns: Set<string>;
  tables: Set<string>;
  constraints: Set<string>;
  indexes: Set<string>;
}

async function readCatalog(q: Queryable, schema: string): Promise<Catalog> {
  const cols = await q.query<{ t: string; c: string }>(
    `SELECT c.relname AS t, a.attname AS c FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped`,
    [schema],
  );
  const cons = await q.query<{ name: string }>(
    `SELECT conname AS name FROM pg_constraint k JOIN pg_namespace n ON n.oid = k.connamespace WHERE n.nspname = $1`,
    [schema],
  );
  const idx = await q.query<{ name: string }>(`SELECT indexname AS name FROM pg_indexes WHERE schemaname = $1`, [
    schema,
  ]);
  return {
    columns: new Set(cols.rows.map((r) => `${r.t}.${r.c}`)),
    tables: new Set(cols.rows.map((r) => r.t)),
    constraints: new Set(cons.rows.map((r) => r.name)),
    indexes: new Set(idx.rows.map((r) => r.name)),
  };
}

/**
 * Brings the database's tables up to the registry; answers the columns it added to tables that
 * already existed (`table.column`), whose stored computes must then be filled for the rows there.
 */
export async function ensureSchema(q: Queryable, schema: string, registry: Registry): Promise<Set<string>> {
  const added = new Set<string>();
  await q.query(`CREATE SCHEMA IF NOT EXISTS ${qi(schema)}`);
  const cat = await readCatalog(q, schema);
  const stmts: string[] = [];
  const index = (name: string, sql: string) => {
    if (!cat.indexes.has(pgName(name))) stmts.push(sql);
  };
  for (const m of registry.models.values()) {
    const t = qt(schema, m.table);
    const cols = columnSql(m);
    if (!cat.tables.has(m.table)) {
      stmts.push(
        `CREATE TABLE IF NOT EXISTS ${t} (id serial PRIMARY KEY${cols.map(([, sql]) => `, ${sql}`).join('')})`,
      );
    } else {
      for (const [name, sql] of cols)
        if (!cat.columns.has(`${m.table}.${name}`)) {
          stmts.push(`ALTER TABLE ${t} ADD COLUMN IF NOT EXISTS ${sql}`);
          added.add(`${m.table}.${name}`);
        }
    }
  }
  for (const m of registry.models.values()) {
    const t = qt(schema, m.table);
    for (const fd of m.fields.values()) {
      if (fd.type === 'many2one' && hasColumn(fd)) {
        const target = qt(schema, registry.get(fd.relation!).table);
        const ondelete = (fd.ondelete ?? (fd.required ? 'restrict' : 'set null')).toUpperCase();
        const cname = `${m.table}_${fd.name}_fkey`;
        index(
          `${m.table}__${fd.name}_index`,
          `CREATE INDEX IF NOT EXISTS ${qi(`${m.table}__${fd.name}_index`)} ON ${t} (${qi(fd.name)})`,
        );
        if (!cat.constraints.has(pgName(cname))) {
          stmts.push(`DO $$ BEGIN ALTER TABLE ${t} ADD CONSTRAINT ${qi(cname)} FOREIGN KEY (${qi(fd.name)})
            REFERENCES ${target}(id) ON DELETE ${ondelete}; EXCEPTION WHEN duplicate_object THEN NULL; END $$`);
        }
      }
      if (fd.type === 'many2many') {
        const rel = qt(schema, fd.relationTable!);
        const other = qt(schema, registry.get(fd.relation!).table);
        const [c1, c2] = [qi(fd.column1!), qi(fd.column2!)];
        if (!cat.tables.has(fd.relationTable!)) {
          cat.tables.add(fd.relationTable!);
          stmts.push(`CREATE TABLE IF NOT EXISTS ${rel} (
            ${c1} integer NOT NULL REFERENCES ${t}(id) ON DELETE CASCADE,
            ${c2} integer NOT NULL REFERENCES ${other}(id) ON DELETE CASCADE,
            PRIMARY KEY (${c1}, ${c2}))`);
        }
        index(
          `${fd.relationTable}_${fd.column2}_idx`,
          `CREATE INDEX IF NOT EXISTS ${qi(`${fd.relationTable}_${fd.column2}_idx`)} ON ${rel} (${c2})`,
        );
      }
    }
    if (m.fields.has('active'))
      index(
        `${m.table}__active_index`,
        `CREATE INDEX IF NOT EXISTS ${qi(`${m.table}__active_index`)} ON ${t} (active)`,
      );
    for (const c of m.constraints) stmts.push(c.replaceAll('$T', t));
  }
  // Odoo's res.users.apikeys is `_auto = False` (own table, not a model callable over RPC).
  if (!cat.tables.has('res_users_apikeys')) {
    stmts.push(`CREATE TABLE IF NOT EXISTS ${qt(schema, 'res_users_apikeys')} (
      id serial PRIMARY KEY, name text NOT NULL,
      user_id integer NOT NULL REFERENCES ${qt(schema, 'res_users')}(id) ON DELETE CASCADE,
      scope text, index varchar(8) NOT NULL, key text NOT NULL,
      create_date timestamp NOT NULL DEFAULT (now() at time zone 'utc'), last_used timestamp)`);
  }
  index(
    'res_users_apikeys_index_idx',
    `CREATE INDEX IF NOT EXISTS res_users_apikeys_index_idx ON ${qt(schema, 'res_users_apikeys')} (index)`,
  );
  if (stmts.length) await q.exec(stmts.map((s) => `${s};`).join('\n'));
  return added;
}
