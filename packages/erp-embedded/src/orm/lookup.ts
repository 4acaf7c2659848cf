/** Small lookups shared by model hooks, business actions and seeds. */
import { type Env, tableSql } from './env.js';

/** The qualified table of a model. */
export const tbl = (env: Env, model: string) => tableSql(env, env.registry.get(model));

export async function rows<T = Record<string, unknown>>(env: Env, sql: string, params: unknown[] = []): Promise<T[]> {
  return (await env.q.query<T>(sql, params)).rows;
}

export async function one<T = Record<string, unknown>>(
  env: Env,
  sql: string,
  params: unknown[] = [],
): Promise<T | undefined> {
  return (await env.q.query<T>(sql, params)).rows[0];
}

/** `env.ref('module.name').id`, or undefined when the external id (or its record) is gone. */
export async function refId(env: Env, xmlid: string, model?: string): Promise<number | undefined> {
  const [module, name] = xmlid.split('.');
  const r = await one<{ res_id: number; model: string }>(
    env,
    `SELECT res_id, model FROM ${tbl(env, 'ir.model.data')} WHERE module = $1 AND name = $2`,
    [module, name],
  );
  if (!r || (model && r.model !== model)) return undefined;
  const exists = await one(env, `SELECT 1 FROM ${tbl(env, r.model)} WHERE id = $1`, [r.res_id]);
  return exists ? r.res_id : undefined;
}

/** Today as Odoo's `fields.Date.today()` (UTC) and now as `fields.Datetime.now()`. */
export const todayUtc = (d = new Date()) => d.toISOString().slice(0, 10);
export const nowUtc = (d = new Date()) => d.toISOString().slice(0, 19).replace('T', ' ');

/**
 * Monetary rounding to the cent (the currency rounding of USD/EUR, 0.01), half away from zero like
 * Odoo's `float_round`: 15 significant digits first, so 10.005 (10.00499999… in binary) gives 10.01.
 */
export const round2 = (v: number) => (Math.sign(v) * Math.round(Number((Math.abs(v) * 100).toPrecision(15)))) / 100;

/** Odoo's `float_is_zero` at the cent. */
export const isZero = (v: number) => Math.abs(v) < 0.005;

export const asId = (v: unknown): number | undefined => {
  const id = Array.isArray(v) ? v[0] : v;
  return typeof id === 'number' && Number.isInteger(id) && id > 0 ? id : undefined;
};
