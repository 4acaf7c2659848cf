/** Helpers of the business methods: record locking, state transitions through the ORM. */
import { userError } from '../../errors.js';
import type { ModelDef } from '../../registry.js';
import type { Env } from '../env.js';
import { rows, tbl } from '../lookup.js';
import { checkAccess } from '../rules.js';
import { write } from '../write.js';

export type Kw = Record<string, unknown>;

export interface Action {
  /** A record method (`ids` = the first positional argument, Odoo's `self`), else an `@api.model` one. */
  record: boolean;
  run(env: Env, m: ModelDef, ids: number[], args: unknown[], kw: Kw): Promise<unknown>;
}

export const recordMethod = (run: Action['run']): Action => ({ record: true, run });
export const modelMethod = (run: Action['run']): Action => ({ record: false, run });

/**
 * The records, checked (MissingError / AccessError for a write) and locked until the end of the
 * call (`FOR UPDATE`), so two calls cannot both post the same invoice. Text and number columns only.
 */
export async function lockRecords<T extends { id: number }>(
  env: Env,
  m: ModelDef,
  ids: number[],
  cols: string[],
): Promise<T[]> {
  if (!ids.length) return [];
  await checkAccess(env, m, ids, 'write');
  const list = cols.map((c) => `"${c}"`).join(', ');
  return rows<T>(
    env,
    `SELECT id, ${list} FROM ${tbl(env, m.name)} WHERE id = ANY($1::integer[]) ORDER BY id FOR UPDATE`,
    [ids],
  );
}

export interface Transition {
  /** States the records may leave. */
  from: string[];
  /** States where the method does nothing (Odoo: cancelling a cancelled order). */
  noop?: string[];
  vals: Record<string, unknown> | (() => Record<string, unknown>);
  /** The UserError text for a record in another state. */
  refuse: string | ((rec: { id: number; state: string; name: string | null }) => string);
}

/**
 * Moves the records to `t.vals` (a write: new write_date, computes, rules) when all of them are in
 * `t.from`; refuses the whole call otherwise, with Odoo's UserError envelope.
 */
export async function transition(env: Env, m: ModelDef, ids: number[], t: Transition): Promise<number[]> {
  const recs = await lockRecords<{ id: number; state: string; name: string | null }>(env, m, ids, ['state', 'name']);
  const bad = recs.find((r) => !t.from.includes(r.state) && !t.noop?.includes(r.state));
  if (bad) throw userError(typeof t.refuse === 'function' ? t.refuse(bad) : t.refuse);
  const todo = recs.filter((r) => t.from.includes(r.state)).map((r) => r.id);
  if (todo.length) await write(env, m, todo, typeof t.vals === 'function' ? t.vals() : t.vals);
  return todo;
}

/** A record method that only moves its records through `t` and answers `result` (Odoo's return value). */
export const transitionMethod = (t: Transition, result: unknown): Action =>
  recordMethod(async (env, m, ids) => {
    await transition(env, m, ids, t);
    return result;
  });
