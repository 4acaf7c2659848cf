/** create, write and unlink, with defaults, required fields, magic columns and x2many commands. */
import { mandatoryFieldError, missingError, valueError } from '../errors.js';
import { hasColumn, isX2many, type FieldDef } from '../fields.js';
import { fieldOf, type ModelDef } from '../registry.js';
import { qi, qt } from '../schema.js';
import { toColumn } from '../values.js';
import { checkRecursion, touchesHierarchy } from './constraints.js';
import { tableSql, type Env } from './env.js';
import { afterChange, prepareValues } from './hooks.js';
import { normalizeIds } from './read.js';
import { applyX2many } from './x2many.js';

const NOW = `(now() at time zone 'utc')`;

const isDict = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

interface Split {
  columns: Map<string, unknown>;
  x2many: [FieldDef, unknown][];
}

function split(m: ModelDef, vals: Record<string, unknown>): Split {
  const columns = new Map<string, unknown>();
  const x2many: [FieldDef, unknown][] = [];
  for (const [name, v] of Object.entries(vals)) {
    const fd = fieldOf(m, name);
    if (fd.magic) continue; // id, display_name and the log columns are maintained by the ORM.
    if (isX2many(fd)) x2many.push([fd, v]);
    else if (hasColumn(fd)) columns.set(name, toColumn(m.name, fd, v));
  }
  return { columns, x2many };
}

function checkRequired(m: ModelDef, columns: Map<string, unknown>, all: boolean): void {
  for (const fd of m.fields.values()) {
    if (!fd.required || !hasColumn(fd) || fd.magic) continue;
    if ((all || columns.has(fd.name)) && (columns.get(fd.name) === null || columns.get(fd.name) === undefined)) {
      throw mandatoryFieldError(m.description, m.name, fd.string, fd.name);
    }
  }
}

export async function createRecord(env: Env, m: ModelDef, raw: unknown): Promise<number> {
  if (!isDict(raw)) throw valueError(`create() expects a dictionary of values, got ${JSON.stringify(raw)}`);
  const vals = await prepareValues(env, m, raw, true);
  const { columns, x2many } = split(m, vals);
  for (const fd of m.fields.values()) {
    if (!hasColumn(fd) || fd.magic || columns.has(fd.name)) continue;
    // Odoo: `default_<field>` in the context wins over the field's own default.
    const fromContext = env.context[`default_${fd.name}`];
    const d = fromContext !== undefined ? fromContext : fd.defaultFn ? fd.defaultFn({ uid: env.uid }) : fd.default;
    if (d !== undefined) columns.set(fd.name, toColumn(m.name, fd, d));
  }
  checkRequired(m, columns, true);
  const names = [...columns.keys()];
  const params = [...columns.values(), env.uid];
  const uidP = `$${params.length}`;
  const cols = [...names.map(qi), 'create_uid', 'write_uid', 'create_date', 'write_date'].join(', ');
  const placeholders = [...names.map((_, i) => `$${i + 1}`), uidP, uidP, NOW, NOW].join(', ');
  const r = await env.q.query<{ id: number }>(`INSERT INTO ${tableSql(env, m)} (${cols}) VALUES (${placeholders}) RETURNING id`, params);
  const id = r.rows[0]!.id;
  for (const [fd, v] of x2many) await applyX2many(env, m, fd, [id], v);
  if (touchesHierarchy(m, Object.keys(vals))) await checkRecursion(env, m, [id]);
  afterChange(env, m);
  return id;
}

/** Odoo `create(vals)` → id, `create([vals, ...])` → [ids]. */
export async function create(env: Env, m: ModelDef, arg: unknown): Promise<number | number[]> {
  if (Array.isArray(arg)) {
    const ids: number[] = [];
    for (const vals of arg) ids.push(await createRecord(env, m, vals));
    return ids;
  }
  return createRecord(env, m, arg);
}

export async function assertExist(env: Env, m: ModelDef, ids: number[]): Promise<void> {
  const r = await env.q.query<{ id: number }>(`SELECT id FROM ${tableSql(env, m)} WHERE id = ANY($1::integer[])`, [ids]);
  if (r.rows.length === ids.length) return;
  const found = new Set(r.rows.map((x) => x.id));
  throw missingError(m.name, ids.filter((id) => !found.has(id)), env.uid);
}

export async function write(env: Env, m: ModelDef, idsArg: unknown, raw: unknown): Promise<true> {
  const ids = normalizeIds(idsArg);
  if (!isDict(raw)) throw valueError(`write() expects a dictionary of values, got ${JSON.stringify(raw)}`);
  if (ids.length === 0) return true;
  await assertExist(env, m, ids);
  const vals = await prepareValues(env, m, raw, false);
  const { columns, x2many } = split(m, vals);
  checkRequired(m, columns, false);
  const params: unknown[] = [...columns.values(), env.uid, ids];
  const sets = [...columns.keys()].map((name, i) => `${qi(name)} = $${i + 1}`);
  sets.push(`write_uid = $${params.length - 1}`, `write_date = ${NOW}`);
  await env.q.query(`UPDATE ${tableSql(env, m)} SET ${sets.join(', ')} WHERE id = ANY($${params.length}::integer[])`, params);
  for (const [fd, v] of x2many) await applyX2many(env, m, fd, ids, v);
  if (touchesHierarchy(m, Object.keys(vals))) await checkRecursion(env, m, ids);
  afterChange(env, m);
  return true;
}

/** Odoo `unlink()`: deletes the records and their external ids (ir.model.data). */
export async function unlink(env: Env, m: ModelDef, idsArg: unknown): Promise<true> {
  const ids = normalizeIds(idsArg);
  if (ids.length === 0) return true;
  await assertExist(env, m, ids);
  await env.q.query(`DELETE FROM ${tableSql(env, m)} WHERE id = ANY($1::integer[])`, [ids]);
  await env.q.query(`DELETE FROM ${qt(env.schema, 'ir_model_data')} WHERE model = $1 AND res_id = ANY($2::integer[])`, [m.name, ids]);
  afterChange(env, m);
  return true;
}
