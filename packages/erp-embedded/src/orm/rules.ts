/**
 * Multi-company record rules, as Odoo's global `ir.rule`s `['|', ('company_id', '=', False),
 * ('company_id', 'in', company_ids)]` (res.company: `[('id', 'in', company_ids)]`). `company_ids` is
 * Odoo's `env.companies`: the context's `allowed_company_ids` when given (each must be one of the
 * user's companies, else AccessError as in Odoo 15), else all the user's companies (`company_ids`
 * plus `company_id`). The superuser (uid 1, `__system__`) and `env.su` (Odoo's `sudo()`) bypass them.
 * Applied by search/read (records outside are invisible), read/write/unlink of given ids (AccessError
 * for a record outside, MissingError for one that does not exist) and create (AccessError).
 */
import { accessError, missingError, valueError } from '../errors.js';
import type { ModelDef } from '../registry.js';
import { qi, qt } from '../schema.js';
import { type Companies, type Env, Params, SUPERUSER_ID, tableSql } from './env.js';

export type Operation = 'read' | 'write' | 'create' | 'unlink';

const VERBS: Record<Operation, string> = { read: 'access', write: 'modify', create: 'create', unlink: 'delete' };

/** Odoo 15's `ir.rule._make_access_error` text (outside debug mode). */
export const ruleError = (m: ModelDef, op: Operation) =>
  accessError(
    `Due to security restrictions, you are not allowed to ${VERBS[op]} '${m.description}' (${m.name}) records.\n\n` +
      'Contact your administrator to request access if necessary.',
  );

async function lookup(env: Env): Promise<Companies> {
  const rel = env.registry.get('res.users').fields.get('company_ids');
  const users = qt(env.schema, 'res_users');
  const mineSql = rel?.relationTable
    ? `ARRAY(SELECT r.${qi(rel.column2!)} FROM ${qt(env.schema, rel.relationTable)} r
         JOIN ${qt(env.schema, 'res_company')} c ON c.id = r.${qi(rel.column2!)}
        WHERE r.${qi(rel.column1!)} = u.id AND c.active IS NOT FALSE ORDER BY 1)`
    : `ARRAY[]::integer[]`;
  const r = await env.q.query<{ company_id: number | null; ids: number[] }>(
    `SELECT u.company_id, ${mineSql} AS ids FROM ${users} u WHERE u.id = $1`,
    [env.uid],
  );
  const row = r.rows[0];
  const mine = new Set<number>(row?.ids ?? []);
  if (row?.company_id) mine.add(row.company_id);
  const su = env.uid === SUPERUSER_ID || env.su === true;
  const asked = env.context.allowed_company_ids;
  if (Array.isArray(asked) && asked.length > 0) {
    if (!asked.every((id) => Number.isInteger(id)))
      throw valueError(`Invalid allowed_company_ids: ${JSON.stringify(asked)}`);
    const ids = asked as number[];
    if (!su && ids.some((id) => !mine.has(id))) throw accessError('Access to unauthorized or invalid companies.');
    return { su, current: ids[0]!, allowed: ids };
  }
  return { su, current: row?.company_id ?? false, allowed: [...mine].sort((a, b) => a - b) };
}

/** The caller's companies, looked up once per call. */
export function companies(env: Env): Promise<Companies> {
  env.companies ??= lookup(env);
  return env.companies;
}

/** The rule of `m` as SQL on `alias`, or undefined when none applies (no company field, superuser). */
export async function ruleSql(env: Env, m: ModelDef, alias: string, params: Params): Promise<string | undefined> {
  if (!m.companyRule) return undefined;
  const c = await companies(env);
  if (c.su) return undefined;
  const ids = params.add(c.allowed, 'integer[]');
  if (m.companyRule === 'id') return `${alias}.id = ANY(${ids})`;
  return `(${alias}.company_id IS NULL OR ${alias}.company_id = ANY(${ids}))`;
}

/** MissingError for ids that do not exist, else AccessError for ids the rule hides. */
export async function checkAccess(env: Env, m: ModelDef, ids: number[], op: Operation): Promise<void> {
  if (ids.length === 0) return;
  const params = new Params();
  const list = params.add(ids, 'integer[]');
  const found = await ruleSql(env, m, 't0', params);
  // A record just inserted exists: without a rule there is nothing to check.
  if (!found && op === 'create') return;
  const rule = found ?? 'TRUE';
  const r = await env.q.query<{ id: number; ok: boolean }>(
    `SELECT t0.id, ${rule} AS ok FROM ${tableSql(env, m)} t0 WHERE t0.id = ANY(${list})`,
    params.values,
  );
  const byId = new Map(r.rows.map((x) => [x.id, x.ok]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length) throw missingError(m.name, missing, env.uid);
  if ([...byId.values()].some((ok) => !ok)) throw ruleError(m, op);
}

/** For ids a rule-filtered read did not return: AccessError when some exist, else MissingError. */
export async function explainMissing(env: Env, m: ModelDef, ids: number[]): Promise<never> {
  const r = await env.q.query(`SELECT 1 FROM ${tableSql(env, m)} WHERE id = ANY($1::integer[]) LIMIT 1`, [ids]);
  if (r.rows.length) throw ruleError(m, 'read');
  throw missingError(m.name, ids, env.uid);
}
