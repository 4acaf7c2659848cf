/**
 * create, write and unlink, with defaults, required fields, magic columns, x2many commands, model
 * hooks (orm/hooks), stored computes (orm/compute.ts) and record rules (orm/rules.ts).
 */
import { mandatoryFieldError, valueError } from '../errors.js';
import { type FieldDef, hasColumn, isX2many } from '../fields.js';
import { fieldOf, type ModelDef } from '../registry.js';
import { qi, qt } from '../schema.js';
import { toColumn } from '../values.js';
import { dependents, recompute, runPending } from './compute.js';
import { checkRecursion, touchesHierarchy } from './constraints.js';
import { type Env, tableSql } from './env.js';
import { afterChange, afterCreate, beforeUnlink, prepareValues, validate } from './hooks/index.js';
import { normalizeIds } from './read.js';
import type { RecordWrites } from './record-writes.js';
import { checkAccess, companies } from './rules.js';
import { applyX2many } from './x2many.js';

const NOW = `(now() at time zone 'utc')`;

const isDict = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

interface Split {
  columns: Map<string, unknown>;
  x2many: [FieldDef, unknown][];
  /** The fields written, for computes depending on them. */
  changed: Set<string>;
}

function split(m: ModelDef, vals: Record<string, unknown>): Split {
  const columns = new Map<string, unknown>();
  const x2many: [FieldDef, unknown][] = [];
  const changed = new Set<string>();
  for (const [name, v] of Object.entries(vals)) {
    const fd = fieldOf(m, name);
    // id, display_name and the log columns are maintained by the ORM, computed fields by their compute.
    if (fd.magic || fd.computed) continue;
    changed.add(name);
    if (isX2many(fd)) x2many.push([fd, v]);
    else if (hasColumn(fd)) columns.set(name, toColumn(m.name, fd, v));
  }
  return { columns, x2many, changed };
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
  const vals = await prepareValues(env, m, raw, undefined, RECORD_WRITES);
  const { columns, x2many } = split(m, vals);
  let company: number | false | undefined;
  for (const fd of m.fields.values()) {
    if (!hasColumn(fd) || fd.magic || fd.computed || columns.has(fd.name)) continue;
    // Odoo: `default_<field>` in the context wins over the field's own default.
    const fromContext = env.context[`default_${fd.name}`];
    if (fd.defaultFn && fromContext === undefined) company ??= (await companies(env)).current;
    const d =
      fromContext !== undefined
        ? fromContext
        : fd.defaultFn
          ? fd.defaultFn({ uid: env.uid, company: company ?? false })
          : fd.default;
    if (d !== undefined) columns.set(fd.name, toColumn(m.name, fd, d));
  }
  checkRequired(m, columns, true);
  const names = [...columns.keys()];
  const params = [...columns.values(), env.uid];
  const uidP = `$${params.length}`;
  const cols = [...names.map(qi), 'create_uid', 'write_uid', 'create_date', 'write_date'].join(', ');
  const placeholders = [...names.map((_, i) => `$${i + 1}`), uidP, uidP, NOW, NOW].join(', ');
  const r = await env.q.query<{ id: number }>(
    `INSERT INTO ${tableSql(env, m)} (${cols}) VALUES (${placeholders}) RETURNING id`,
    params,
  );
  const id = r.rows[0]!.id;
  for (const [fd, v] of x2many) await applyX2many(env, m, fd, [id], v, RECORD_WRITES);
  await afterCreate(env, m, id, vals, RECORD_WRITES);
  if (touchesHierarchy(m, Object.keys(vals))) await checkRecursion(env, m, [id]);
  await recompute(env, m, [id], 'all', undefined, 0, true);
  await validate(env, m, [id]);
  // Odoo checks the create rule on the new record: a company the caller may not use is refused.
  await checkAccess(env, m, [id], 'create');
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

export async function write(env: Env, m: ModelDef, idsArg: unknown, raw: unknown): Promise<true> {
  const ids = normalizeIds(idsArg);
  if (!isDict(raw)) throw valueError(`write() expects a dictionary of values, got ${JSON.stringify(raw)}`);
  if (ids.length === 0) return true;
  await checkAccess(env, m, ids, 'write');
  const vals = await prepareValues(env, m, raw, ids, RECORD_WRITES);
  const { columns, x2many, changed } = split(m, vals);
  checkRequired(m, columns, false);
  // Records of other models computed from these (old parents of a line that moves, ...).
  const before = m.triggers.length ? await dependents(env, m, ids, changed) : undefined;
  const params: unknown[] = [...columns.values(), env.uid, ids];
  const sets = [...columns.keys()].map((name, i) => `${qi(name)} = $${i + 1}`);
  sets.push(`write_uid = $${params.length - 1}`, `write_date = ${NOW}`);
  await env.q.query(
    `UPDATE ${tableSql(env, m)} SET ${sets.join(', ')} WHERE id = ANY($${params.length}::integer[])`,
    params,
  );
  for (const [fd, v] of x2many) await applyX2many(env, m, fd, ids, v, RECORD_WRITES);
  if (touchesHierarchy(m, Object.keys(vals))) await checkRecursion(env, m, ids);
  await recompute(env, m, ids, changed, before);
  await validate(env, m, ids);
  afterChange(env, m);
  return true;
}

/** Odoo `unlink()`: deletes the records and their external ids (ir.model.data). */
export async function unlink(env: Env, m: ModelDef, idsArg: unknown): Promise<true> {
  const ids = normalizeIds(idsArg);
  if (ids.length === 0) return true;
  await checkAccess(env, m, ids, 'unlink');
  await beforeUnlink(env, m, ids);
  const before = m.triggers.length ? await dependents(env, m, ids, 'all') : undefined;
  await env.q.query(`DELETE FROM ${tableSql(env, m)} WHERE id = ANY($1::integer[])`, [ids]);
  await env.q.query(`DELETE FROM ${qt(env.schema, 'ir_model_data')} WHERE model = $1 AND res_id = ANY($2::integer[])`, [
    m.name,
    ids,
  ]);
  if (before) await runPending(env, before);
  afterChange(env, m);
  return true;
}

/** This module's writes, for x2many commands and model hooks (which do not import this module). */
const RECORD_WRITES: RecordWrites = { createRecord, write, unlink };
