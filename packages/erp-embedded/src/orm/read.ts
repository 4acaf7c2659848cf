/**
 * read / search_read formatting in one SQL statement: many2one display names and x2many id lists
 * come from correlated sub-selects, so 80 records with a many2one cost one round trip, not 81.
 */
import { valueError } from '../errors.js';
import { type FieldDef, hasColumn } from '../fields.js';
import { compileOrder } from '../order.js';
import { displayExpr, type ModelDef } from '../registry.js';
import { qi, qt } from '../schema.js';
import { fromColumn, selectExpr } from '../values.js';
import { type Env, Params, tableSql } from './env.js';
import { explainMissing, ruleSql } from './rules.js';

export type OdooRecord = { id: number } & Record<string, unknown>;

/** The fields to read: the requested ones (checked), or every readable field. */
export function fieldsToRead(m: ModelDef, fields: unknown): FieldDef[] {
  if (fields === undefined || fields === null || fields === false || (Array.isArray(fields) && fields.length === 0)) {
    return [...m.fields.values()].filter((fd) => !fd.secret);
  }
  if (!Array.isArray(fields) || !fields.every((x) => typeof x === 'string')) {
    throw valueError(`Invalid fields argument: ${JSON.stringify(fields)}`);
  }
  return [...new Set(fields)].map((name) => {
    const fd = m.fields.get(name);
    if (!fd) throw valueError(`Invalid field '${name}' on model '${m.name}'`);
    return fd;
  });
}

function selectList(env: Env, m: ModelDef, alias: string, fds: FieldDef[]): string {
  const cols = [`${alias}.id AS "id"`];
  for (const fd of fds) {
    const as = qi(fd.name);
    if (fd.name === 'id') continue;
    if (fd.secret) cols.push(`'' AS ${as}`);
    else if (fd.name === 'display_name') cols.push(`${displayExpr(m, alias, env.schema)} AS ${as}`);
    else if (fd.type === 'many2one') {
      const co = env.registry.get(fd.relation!);
      cols.push(`${alias}.${as} AS ${as}`);
      cols.push(
        `(SELECT ${displayExpr(co, 'c', env.schema)} FROM ${tableSql(env, co)} c WHERE c.id = ${alias}.${as}) AS ${qi(`${fd.name}__dn`)}`,
      );
    } else if (fd.type === 'one2many') {
      const co = env.registry.get(fd.relation!);
      const order = compileOrder(env.registry, env.schema, co, 'c', null);
      cols.push(
        `ARRAY(SELECT c.id FROM ${tableSql(env, co)} c WHERE c.${qi(fd.inverseName!)} = ${alias}.id ORDER BY ${order}) AS ${as}`,
      );
    } else if (fd.type === 'many2many') {
      const co = env.registry.get(fd.relation!);
      const order = compileOrder(env.registry, env.schema, co, 'c', null);
      cols.push(`ARRAY(SELECT c.id FROM ${qt(env.schema, fd.relationTable!)} r JOIN ${tableSql(env, co)} c ON c.id = r.${qi(fd.column2!)}
        WHERE r.${qi(fd.column1!)} = ${alias}.id ORDER BY ${order}) AS ${as}`);
    } else if (hasColumn(fd)) cols.push(`${selectExpr(alias, fd)} AS ${as}`);
  }
  return cols.join(', ');
}

function format(fds: FieldDef[], row: Record<string, unknown>): OdooRecord {
  const out: OdooRecord = { id: row.id as number };
  for (const fd of fds) {
    if (fd.name === 'id') continue;
    const v = row[fd.name];
    if (fd.secret) out[fd.name] = '';
    else if (fd.name === 'display_name') out[fd.name] = v ?? false;
    else if (fd.type === 'many2one')
      out[fd.name] = v === null || v === undefined ? false : [v, row[`${fd.name}__dn`] ?? false];
    else if (fd.type === 'one2many' || fd.type === 'many2many') out[fd.name] = (v as number[] | null) ?? [];
    else out[fd.name] = fromColumn(fd, v);
  }
  return out;
}

export interface SelectSpec {
  where: string;
  params: Params;
  order?: string;
  limit?: number | undefined;
  offset?: number | undefined;
}

/** Runs one SELECT over the model (alias `t0`) and formats its rows. */
export async function selectRecords(env: Env, m: ModelDef, fds: FieldDef[], spec: SelectSpec): Promise<OdooRecord[]> {
  let sql = `SELECT ${selectList(env, m, 't0', fds)} FROM ${tableSql(env, m)} t0 WHERE ${spec.where}`;
  if (spec.order) sql += ` ORDER BY ${spec.order}`;
  if (spec.limit !== undefined) sql += ` LIMIT ${spec.params.add(spec.limit, 'integer')}`;
  if (spec.offset) sql += ` OFFSET ${spec.params.add(spec.offset, 'integer')}`;
  const r = await env.q.query<Record<string, unknown>>(sql, spec.params.values);
  return r.rows.map((row) => format(fds, row));
}

export function normalizeIds(ids: unknown): number[] {
  const list = Array.isArray(ids) ? ids : ids === false || ids === null || ids === undefined ? [] : [ids];
  for (const id of list) {
    if (typeof id !== 'number' || !Number.isInteger(id)) throw valueError(`Invalid record id: ${JSON.stringify(id)}`);
  }
  return [...new Set(list as number[])];
}

/**
 * Odoo `read(ids, fields)`: records in the order of `ids`; an id that does not exist is a
 * MissingError, one outside the caller's record rules an AccessError.
 */
export async function read(env: Env, m: ModelDef, ids: unknown, fields: unknown): Promise<OdooRecord[]> {
  const list = normalizeIds(ids);
  const fds = fieldsToRead(m, fields);
  if (list.length === 0) return [];
  const params = new Params();
  const rule = await ruleSql(env, m, 't0', params);
  const where = `t0.id = ANY(${params.add(list, 'integer[]')})${rule ? ` AND ${rule}` : ''}`;
  const rows = await selectRecords(env, m, fds, { where, params });
  const byId = new Map(rows.map((r) => [r.id, r]));
  const missing = list.filter((id) => !byId.has(id));
  if (missing.length) await explainMissing(env, m, missing);
  return list.map((id) => byId.get(id)!);
}
