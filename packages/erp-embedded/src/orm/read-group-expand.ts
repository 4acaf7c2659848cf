/**
 * Odoo's `group_expand` for read_group (`_read_group_fill_results`): a lazy read_group grouped by
 * crm.lead's `stage_id` also answers the stages without leads (`_read_group_stage_ids`: the stages
 * found plus those of no team, or of the context's `default_team_id`), in the stages' order, empty
 * ones with count 0, aggregates false and `__domain` = [(stage_id, '=', id)] + domain; every group
 * then gets `__fold` from the stage.
 */
import { compileOrder } from '../order.js';
import { displayExpr, type ModelDef } from '../registry.js';
import { type Env, tableSql } from './env.js';
import type { Domain } from './read-group-format.js';
import type { GroupBy } from './read-group-spec.js';

type Row = Record<string, unknown>;

export interface ExpandInput {
  result: Row[];
  domain: Domain;
  aggs: string[];
  countKey: string;
  rest: string[];
  orderby: string;
}

/** Models and many2one fields with a group_expand, and the extra stages they show. */
const EXPANDED: Record<string, (env: Env) => string> = {
  'crm.lead.stage_id': (env) => {
    const team = env.context.default_team_id;
    return Number.isInteger(team) ? `(c.team_id IS NULL OR c.team_id = ${Number(team)})` : 'c.team_id IS NULL';
  },
};

export async function expandGroups(env: Env, m: ModelDef, gb: GroupBy, x: ExpandInput): Promise<Row[]> {
  const extra = EXPANDED[`${m.name}.${gb.field.name}`];
  if (!extra) return x.result;
  const co = env.registry.get(gb.field.relation!);
  const present = x.result
    .map((r) => r[gb.spec])
    .filter(Array.isArray)
    .map((v) => v[0] as number);
  let order = compileOrder(env.registry, env.schema, co, 'c', null);
  if (x.orderby.trim() === `${gb.spec} desc`)
    order = order.replace(/\b(ASC|DESC)\b/g, (d) => (d === 'ASC' ? 'DESC' : 'ASC'));
  // Odoo searches the groups as superuser (`access_rights_uid=SUPERUSER_ID`).
  const stages = (
    await env.q.query<{ id: number; name: string; fold: boolean | null }>(
      `SELECT c.id, ${displayExpr(co, 'c', env.schema)} AS name, c.fold FROM ${tableSql(env, co)} c WHERE c.id = ANY($1::integer[]) OR ${extra(env)} ORDER BY ${order}`,
      [present],
    )
  ).rows;
  const byId = new Map<unknown, Row>();
  for (const r of x.result) byId.set(Array.isArray(r[gb.spec]) ? (r[gb.spec] as unknown[])[0] : false, r);
  const out: Row[] = stages.map((s) => {
    const found = byId.get(s.id);
    if (found) return found;
    const line: Row = Object.fromEntries(x.aggs.map((a) => [a, false]));
    line[gb.spec] = [s.id, s.name];
    line[`${gb.field.name}_count`] = 0;
    line.__domain = [[gb.field.name, '=', s.id], ...x.domain];
    if (x.rest.length) line.__context = { group_by: x.rest };
    return line;
  });
  // Groups without a stage come where Odoo's OrderedDict puts them: after the stages.
  const none = byId.get(false);
  if (none) out.push(none);
  const fold = new Map(stages.map((s) => [s.id, s.fold === true]));
  for (const r of out) r.__fold = Array.isArray(r[gb.spec]) ? (fold.get((r[gb.spec] as number[])[0]!) ?? false) : false;
  return out;
}
