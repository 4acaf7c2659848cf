/**
 * Stored computed fields (Odoo `compute=` + `store=True` + `@api.depends`), recomputed at once after
 * every create / write / unlink, inside the call's transaction:
 *  1. the changed model's own computes whose dependencies were touched, in declaration order;
 *  2. computes of other models reached through a relation (`order_line.price_total` on sale.order
 *     when a line changes, `order_id.state` on the lines when the order's state changes), for the
 *     related records found before the change (old parents) and after it (new parents).
 * A compute returns values; only records whose values differ are updated, and those get a new
 * `write_date`/`write_uid` (the change feed sees an order whose total moved) and propagate further.
 */
import { sqlType } from '../fields.js';
import type { ComputeSpec, ModelDef, RemoteTrigger } from '../registry.js';
import { qi, qt } from '../schema.js';
import { type Env, tableSql } from './env.js';

/** Field names written by a call, or every field (create, unlink). */
export type Changed = ReadonlySet<string> | 'all';

interface Job {
  model: ModelDef;
  spec: ComputeSpec;
  ids: Set<number>;
}
/** Recomputations found before a change, to run after it. */
export type Pending = Map<ComputeSpec, Job>;

const MAX_DEPTH = 8;
const hits = (changed: Changed, names: Iterable<string>) => {
  if (changed === 'all') return true;
  for (const n of names) if (changed.has(n)) return true;
  return false;
};

function add(into: Pending, model: ModelDef, spec: ComputeSpec, ids: number[]): void {
  if (!ids.length) return;
  let job = into.get(spec);
  if (!job) into.set(spec, (job = { model, spec, ids: new Set() }));
  for (const id of ids) job.ids.add(id);
}

/** Ids of `t.target` related to `ids` of the trigger's source model. */
async function relatedIds(env: Env, source: ModelDef, t: RemoteTrigger, ids: number[]): Promise<number[]> {
  const via = t.via;
  let sql: string;
  if (via.type === 'many2one') {
    sql = `SELECT id FROM ${tableSql(env, t.target)} WHERE ${qi(via.name)} = ANY($1::integer[])`;
  } else if (via.type === 'one2many') {
    const inv = qi(via.inverseName!);
    sql = `SELECT DISTINCT ${inv} AS id FROM ${tableSql(env, source)} WHERE id = ANY($1::integer[]) AND ${inv} IS NOT NULL`;
  } else {
    sql = `SELECT DISTINCT ${qi(via.column1!)} AS id FROM ${qt(env.schema, via.relationTable!)} WHERE ${qi(via.column2!)} = ANY($1::integer[])`;
  }
  return (await env.q.query<{ id: number }>(sql, [ids])).rows.map((r) => r.id);
}

/** Computes of other models that depend on `changed` fields of `ids` (call before and after a change). */
export async function dependents(
  env: Env,
  m: ModelDef,
  ids: number[],
  changed: Changed,
  into: Pending = new Map(),
  created = false,
): Promise<Pending> {
  if (!ids.length) return into;
  for (const t of m.triggers) {
    // Nothing points at a record being created through a many2one yet (records created by its own
    // x2many commands computed themselves when they were created).
    if (created && t.via.type === 'many2one') continue;
    if (hits(changed, t.fields)) add(into, t.target, t.spec, await relatedIds(env, m, t, ids));
  }
  return into;
}

/**
 * Runs one compute and writes the values that changed; returns the ids updated. A change stamps
 * `write_date`, except when `touch` is false (a backfill: the record itself did not change).
 */
async function apply(env: Env, m: ModelDef, spec: ComputeSpec, ids: number[], touch = true): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await spec.compute(env, ids, m);
  if (!rows.length) return [];
  const params: unknown[] = [rows.map((r) => r.id)];
  const cols = ['id'];
  const arrays = ['$1::integer[]'];
  for (const name of spec.fields) {
    const fd = m.fields.get(name)!;
    params.push(rows.map((r) => (r[name] === false || r[name] === undefined ? null : r[name])));
    cols.push(qi(name));
    arrays.push(`$${params.length}::${sqlType(fd.type)}[]`);
  }
  params.push(env.uid);
  const sets = spec.fields.map((n) => `${qi(n)} = v.${qi(n)}`);
  if (touch) sets.push(`write_uid = $${params.length}`, `write_date = (now() at time zone 'utc')`);
  else params.pop();
  const differs = spec.fields.map((n) => `t.${qi(n)} IS DISTINCT FROM v.${qi(n)}`).join(' OR ');
  const r = await env.q.query<{ id: number }>(
    `UPDATE ${tableSql(env, m)} t SET ${sets.join(', ')}
       FROM unnest(${arrays.join(', ')}) AS v(${cols.join(', ')})
      WHERE t.id = v.id AND (${differs}) RETURNING t.id`,
    params,
  );
  return r.rows.map((x) => x.id);
}

/** Runs what `dependents` collected (e.g. before an unlink). */
export async function runPending(env: Env, pending: Pending, depth = 0): Promise<void> {
  if (depth > MAX_DEPTH) throw new Error('computed fields depend on each other in a cycle');
  for (const job of pending.values()) {
    const updated = await apply(env, job.model, job.spec, [...job.ids], job.spec.touch !== false);
    if (updated.length) await recompute(env, job.model, updated, new Set(job.spec.fields), undefined, depth + 1);
  }
}

/** After `changed` fields of `ids` of `m` were written: own computes first, then dependents (plus `before`). */
export async function recompute(
  env: Env,
  m: ModelDef,
  ids: number[],
  changed: Changed,
  before?: Pending,
  depth = 0,
  created = false,
): Promise<void> {
  if (depth > MAX_DEPTH) throw new Error('computed fields depend on each other in a cycle');
  const now: Changed = changed === 'all' ? 'all' : new Set(changed);
  if (ids.length) {
    for (const spec of m.computes) {
      if (
        !hits(
          now,
          spec.depends.map((d) => d.split('.')[0]!),
        )
      )
        continue;
      await apply(env, m, spec, ids, spec.touch !== false);
      if (now !== 'all') for (const f of spec.fields) (now as Set<string>).add(f);
    }
  }
  if (!m.triggers.length && !before?.size) return;
  await runPending(env, await dependents(env, m, ids, now, before ?? new Map(), created), depth);
}

const BACKFILL_BATCH = 5000;

/**
 * Fills the stored computes that own a column just added to an existing table (`table.column`, as
 * ensureSchema answers), over every row there, as Odoo computes a new stored field on a module
 * update. The rows keep their `write_date`: none of them was changed by anyone.
 */
export async function backfillComputes(env: Env, added: ReadonlySet<string>): Promise<void> {
  if (!added.size) return;
  for (const m of env.registry.models.values()) {
    for (const spec of m.computes) {
      if (!spec.fields.some((f) => added.has(`${m.table}.${f}`))) continue;
      for (let after = 0; ;) {
        const ids = (
          await env.q.query<{ id: number }>(
            `SELECT id FROM ${tableSql(env, m)} WHERE id > $1 ORDER BY id LIMIT ${BACKFILL_BATCH}`,
            [after],
          )
        ).rows.map((r) => r.id);
        if (!ids.length) break;
        await apply(env, m, spec, ids, false);
        after = ids[ids.length - 1]!;
      }
    }
  }
}
