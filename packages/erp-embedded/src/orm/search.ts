/** search, search_count and search_read. */
import { compileDomain } from '../domain.js';
import { valueError } from '../errors.js';
import { compileOrder } from '../order.js';
import type { ModelDef } from '../registry.js';
import { activeTest, type Env, Params, tableSql } from './env.js';
import { fieldsToRead, type OdooRecord, selectRecords } from './read.js';
import { ruleSql } from './rules.js';

export interface SearchOpts {
  offset?: unknown;
  limit?: unknown;
  order?: unknown;
}

const optInt = (name: string, v: unknown): number | undefined => {
  if (v === undefined || v === null || v === false || v === 0) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw valueError(`Invalid ${name}: ${JSON.stringify(v)}`);
  return v;
};

/** The domain as SQL on alias `t0`, ANDed with the model's record rule for the caller. */
export async function where(env: Env, m: ModelDef, domain: unknown, params: Params): Promise<string> {
  const w = compileDomain(
    { registry: env.registry, schema: env.schema, params, activeTest: activeTest(env) },
    m,
    't0',
    domain,
  );
  const rule = await ruleSql(env, m, 't0', params);
  return rule ? `(${w} AND ${rule})` : w;
}

export async function search(env: Env, m: ModelDef, domain: unknown, opts: SearchOpts = {}): Promise<number[]> {
  const params = new Params();
  const w = await where(env, m, domain, params);
  const order = compileOrder(env.registry, env.schema, m, 't0', opts.order as string | undefined);
  let sql = `SELECT t0.id FROM ${tableSql(env, m)} t0 WHERE ${w} ORDER BY ${order}`;
  const limit = optInt('limit', opts.limit);
  const offset = optInt('offset', opts.offset);
  if (limit !== undefined) sql += ` LIMIT ${params.add(limit, 'integer')}`;
  if (offset) sql += ` OFFSET ${params.add(offset, 'integer')}`;
  const r = await env.q.query<{ id: number }>(sql, params.values);
  return r.rows.map((x) => x.id);
}

export async function searchCount(env: Env, m: ModelDef, domain: unknown): Promise<number> {
  const params = new Params();
  const w = await where(env, m, domain, params);
  const r = await env.q.query<{ n: number }>(
    `SELECT count(*)::integer AS n FROM ${tableSql(env, m)} t0 WHERE ${w}`,
    params.values,
  );
  return r.rows[0]?.n ?? 0;
}

export async function searchRead(
  env: Env,
  m: ModelDef,
  domain: unknown,
  fields: unknown,
  opts: SearchOpts = {},
): Promise<OdooRecord[]> {
  const fds = fieldsToRead(m, fields);
  const params = new Params();
  const w = await where(env, m, domain, params);
  const order = compileOrder(env.registry, env.schema, m, 't0', opts.order as string | undefined);
  return selectRecords(env, m, fds, {
    where: w,
    params,
    order,
    limit: optInt('limit', opts.limit),
    offset: optInt('offset', opts.offset),
  });
}
