/**
 * Tables of one ERP database (a PostgreSQL schema `erp_<name>`), generated from the registry.
 * Idempotent: missing tables, columns, indexes and foreign keys are added, nothing is dropped, so
 * a new field in a model definition reaches existing databases on the next start.
 */
import type { Queryable } from '@platform/db';
import { hasColumn, sqlType } from './fields.js';
import type { ModelDef, Registry } from './registry.js';

export const qi = (name: string): string => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe SQL identifier: ${name}`);
  return `"${name}"`;
};

export const qt = (schema: string, table: string) => `${qi(schema)}.${qi(table)}`;

function columnSql(m: ModelDef): string[] {
  const cols = ['id serial PRIMARY KEY'];
  for (const fd of m.fields.values()) {
    if (fd.name === 'id' || !hasColumn(fd)) continue;
    cols.push(`${qi(fd.name)} ${sqlType(fd.type)}`);
  }
  return cols;
}

export async function ensureSchema(q: Queryable, schema: string, registry: Registry): Promise<void> {
  await q.query(`CREATE SCHEMA IF NOT EXISTS ${qi(schema)}`);
  const stmts: string[] = [];
  for (const m of registry.models.values()) {
    const t = qt(schema, m.table);
    stmts.push(`CREATE TABLE IF NOT EXISTS ${t} (${columnSql(m).join(', ')})`);
    for (const col of columnSql(m).slice(1)) stmts.push(`ALTER TABLE ${t} ADD COLUMN IF NOT EXISTS ${col}`);
  }
  for (const m of registry.models.values()) {
    const t = qt(schema, m.table);
    for (const fd of m.fields.values()) {
      if (fd.type === 'many2one' && hasColumn(fd)) {
        const target = qt(schema, registry.get(fd.relation!).table);
        const ondelete = (fd.ondelete ?? (fd.required ? 'restrict' : 'set null')).toUpperCase();
        const cname = qi(`${m.table}_${fd.name}_fkey`);
        stmts.push(`CREATE INDEX IF NOT EXISTS ${qi(`${m.table}__${fd.name}_index`)} ON ${t} (${qi(fd.name)})`);
        stmts.push(`DO $$ BEGIN ALTER TABLE ${t} ADD CONSTRAINT ${cname} FOREIGN KEY (${qi(fd.name)})
          REFERENCES ${target}(id) ON DELETE ${ondelete}; EXCEPTION WHEN duplicate_object THEN NULL; END $$`);
      }
      if (fd.type === 'many2many') {
        const rel = qt(schema, fd.relationTable!);
        const other = qt(schema, registry.get(fd.relation!).table);
        const [c1, c2] = [qi(fd.column1!), qi(fd.column2!)];
        stmts.push(`CREATE TABLE IF NOT EXISTS ${rel} (
          ${c1} integer NOT NULL REFERENCES ${t}(id) ON DELETE CASCADE,
          ${c2} integer NOT NULL REFERENCES ${other}(id) ON DELETE CASCADE,
          PRIMARY KEY (${c1}, ${c2}))`);
        stmts.push(`CREATE INDEX IF NOT EXISTS ${qi(`${fd.relationTable}_${fd.column2}_idx`)} ON ${rel} (${c2})`);
      }
    }
    if (m.fields.has('active')) {
      stmts.push(`CREATE INDEX IF NOT EXISTS ${qi(`${m.table}__active_index`)} ON ${t} (active)`);
    }
    for (const c of m.constraints) stmts.push(c.replaceAll('$T', t));
  }
  // Odoo's res.users.apikeys is `_auto = False` (own table, not a model callable over RPC).
  stmts.push(`CREATE TABLE IF NOT EXISTS ${qt(schema, 'res_users_apikeys')} (
    id serial PRIMARY KEY, name text NOT NULL,
    user_id integer NOT NULL REFERENCES ${qt(schema, 'res_users')}(id) ON DELETE CASCADE,
    scope text, index varchar(8) NOT NULL, key text NOT NULL,
    create_date timestamp NOT NULL DEFAULT (now() at time zone 'utc'), last_used timestamp)`);
  stmts.push(`CREATE INDEX IF NOT EXISTS res_users_apikeys_index_idx ON ${qt(schema, 'res_users_apikeys')} (index)`);
  for (const s of stmts) await q.query(s);
}
