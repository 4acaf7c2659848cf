/**
 * Odoo 15's `read_group(domain, fields, groupby, offset, limit, orderby, lazy)` in one GROUP BY
 * statement under the caller's record rules and `active_test`. Each group carries its groupby
 * values (many2one as [id, name], dates as labels), the aggregates, the count (`<field>_count` when
 * lazy, `__count` otherwise), `__domain`, and `__context.group_by` for the groupbys a lazy call left.
 * A many2one with Odoo's `group_expand` (crm.lead.stage_id) also lists its empty groups, with `__fold`.
 */
import { valueError } from '../errors.js';
import type { FieldDef } from '../fields.js';
import { displayExpr, type ModelDef } from '../registry.js';
import { qi } from '../schema.js';
import { fromColumn } from '../values.js';
import { type Env, Params, tableSql } from './env.js';
import { expandGroups } from './read-group-expand.js';
import { andDomains, dateGroup, type Domain } from './read-group-format.js';
import { type Aggregate, type GroupBy, parseAggregates, parseGroupBy } from './read-group-spec.js';
import { where } from './search.js';

export interface ReadGroupArgs {
  domain: unknown;
  fields: unknown;
  groupby: unknown;
  offset?: unknown;
  limit?: unknown;
  orderby?: unknown;
  lazy?: unknown;
}

type Row = Record<string, unknown>;
const optInt = (name: string, v: unknown): number | undefined => {
  if (v === undefined || v === null || v === false || v === 0) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 2 ** 31 - 1)
    throw valueError(`Invalid ${name}: ${JSON.stringify(v)}`);
  return v;
};

const groupExpr = (gb: GroupBy) => {
  const col = `t0.${qi(gb.field.name)}`;
  if (gb.interval) return `date_trunc('${gb.interval}', ${col}::timestamp)`;
  return gb.field.type === 'boolean' ? `COALESCE(${col}, false)` : col;
};

function aggExpr(a: Aggregate): string {
  const col = `t0.${qi(a.field.name)}`;
  if (a.func === 'count_distinct') return `count(DISTINCT ${col})::integer`;
  if (a.func === 'count') return `count(${col})::integer`;
  if (a.func === 'sum' || a.func === 'avg') return `${a.func}(${col})::double precision`;
  if ((a.func === 'max' || a.func === 'min') && (a.field.type === 'date' || a.field.type === 'datetime')) {
    return `to_char(${a.func}(${col}), '${a.field.type === 'date' ? 'YYYY-MM-DD' : 'YYYY-MM-DD HH24:MI:SS'}')`;
  }
  return `${a.func}(${col})`;
}

/** ORDER BY terms: Odoo orders a many2one group by the comodel's `_order`, others by the value. */
function orderTerms(env: Env, m: ModelDef, groups: GroupBy[], aggs: Aggregate[], orderby: string): string[] {
  const terms: string[] = [];
  for (const part of orderby.split(',')) {
    const [name, dirRaw, ...rest] = part.trim().split(/\s+/);
    const dir = (dirRaw ?? 'asc').toLowerCase();
    if (!name || rest.length || (dir !== 'asc' && dir !== 'desc'))
      throw valueError(`Invalid "order" specified (${orderby})`);
    const i = groups.findIndex((g) => g.spec === name || g.field.name === name);
    if (i >= 0) {
      const fd = groups[i]!.field;
      if (fd.type === 'many2one') {
        const co = env.registry.get(fd.relation!);
        for (const t of co.order.split(',')) {
          const [f, d] = t.trim().split(/\s+/);
          const cf = co.fields.get(f!);
          if (!cf || cf.type === 'many2one' || !cf.store || cf.type === 'one2many' || cf.type === 'many2many') continue;
          const flip = (d ?? 'asc').toLowerCase() === 'desc' ? (dir === 'desc' ? 'ASC' : 'DESC') : dir.toUpperCase();
          terms.push(`(SELECT c.${qi(f!)} FROM ${tableSql(env, co)} c WHERE c.id = ${groupExpr(groups[i]!)}) ${flip}`);
        }
      } else terms.push(`g${i} ${dir.toUpperCase()}`);
    } else if (aggs.some((a) => a.name === name)) {
      terms.push(`${qi(`a_${name}`)} ${dir.toUpperCase()}`);
    } else if (!m.fields.has(name)) {
      throw valueError(`Invalid field '${name}' on model '${m.name}'`);
    } // Odoo logs and ignores an order on a field neither grouped nor aggregated.
  }
  return terms;
}

async function displayNames(env: Env, fd: FieldDef, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const co = env.registry.get(fd.relation!);
  const r = await env.q.query<{ id: number; n: string | null }>(
    `SELECT c.id, (${displayExpr(co, 'c', env.schema)})::text AS n FROM ${tableSql(env, co)} c WHERE c.id = ANY($1::integer[])`,
    [ids],
  );
  return new Map(r.rows.map((x) => [x.id, x.n ?? '']));
}

export async function readGroup(env: Env, m: ModelDef, a: ReadGroupArgs): Promise<Row[]> {
  const domain: Domain = Array.isArray(a.domain) ? a.domain : [];
  const all = parseGroupBy(m, a.groupby);
  const lazy = a.lazy === undefined || a.lazy === null ? true : Boolean(a.lazy);
  const groups = lazy ? all.slice(0, 1) : all;
  const aggs = parseAggregates(m, a.fields, new Set(groups.map((g) => g.field.name)));
  const countKey = lazy && groups[0] ? `${groups[0].field.name}_count` : '__count';
  const params = new Params();
  const w = await where(env, m, domain, params);
  const select = [
    `count(*)::integer AS "__n"`,
    `min(t0.id) AS "__id"`,
    ...groups.map((g, i) => `${groupExpr(g)} AS g${i}`),
    // Date groups as UTC text too (no driver Date objects, no time zone shift).
    ...groups.flatMap((g, i) => (g.interval ? [`to_char(${groupExpr(g)}, 'YYYY-MM-DD HH24:MI:SS') AS s${i}`] : [])),
    ...aggs.map((x) => `${aggExpr(x)} AS ${qi(`a_${x.name}`)}`),
  ];
  let sql = `SELECT ${select.join(', ')} FROM ${tableSql(env, m)} t0 WHERE ${w}`;
  if (groups.length) sql += ` GROUP BY ${groups.map((_, i) => `g${i}`).join(', ')}`;
  const orderby = typeof a.orderby === 'string' && a.orderby.trim() ? a.orderby : groups.map((g) => g.spec).join(',');
  const terms = orderby ? orderTerms(env, m, groups, aggs, orderby) : [];
  if (terms.length) sql += ` ORDER BY ${terms.join(', ')}`;
  const limit = optInt('limit', a.limit);
  const offset = optInt('offset', a.offset);
  if (limit !== undefined) sql += ` LIMIT ${params.add(limit, 'integer')}`;
  // Odoo 15 applies the offset only together with a limit.
  if (offset && limit !== undefined) sql += ` OFFSET ${params.add(offset, 'integer')}`;
  const rows = (await env.q.query<Row>(sql, params.values)).rows;

  const names = new Map<number, Map<number, string>>();
  for (const [i, g] of groups.entries()) {
    if (g.field.type === 'many2one')
      names.set(
        i,
        await displayNames(
          env,
          g.field,
          rows.map((r) => r[`g${i}`] as number).filter((x) => x !== null),
        ),
      );
  }
  // Odoo 15 without groupby answers the raw row: min id, count and aggregates (no __domain).
  if (!groups.length) return rows.map((r) => ({ id: r.__id ?? false, __count: r.__n, ...aggValues(aggs, r) }));
  const ranges = new Map<Row, Record<string, { from: string; to: string } | false>>();
  const result = rows.map((r) => {
    const out: Row = {};
    const sections: Domain[] = [];
    for (const [i, g] of groups.entries()) {
      if (g.interval) {
        const { value, domain: d, range } = dateGroup(g, (r[`s${i}`] as string | null) ?? null);
        out[g.spec] = value;
        sections.push(d);
        if (range) ranges.set(out, { ...ranges.get(out), [g.spec]: range });
        continue;
      }
      const v = r[`g${i}`];
      const empty = v === null || v === undefined;
      out[g.spec] =
        g.field.type === 'many2one'
          ? empty
            ? false
            : [v, names.get(i)!.get(v as number) ?? false]
          : fromColumn(g.field, v);
      sections.push([[g.field.name, '=', empty ? false : v]]);
    }
    out[countKey] = r.__n;
    Object.assign(out, aggValues(aggs, r));
    out.__domain = andDomains([...sections, domain]);
    if (lazy && all.length > 1) out.__context = { group_by: all.slice(1).map((g) => g.spec) };
    return out;
  });
  const final =
    lazy && groups[0]?.field.type === 'many2one'
      ? await expandGroups(env, m, groups[0], {
          result,
          domain,
          aggs: aggs.map((x) => x.name),
          countKey,
          rest: all.slice(1).map((g) => g.spec),
          orderby,
        })
      : result;
  // Odoo 15's read_group: `__range` {field: {from, to} | false} on every group once any groupby (lazy or not) is a date.
  const dated = all.filter((g) => g.interval);
  if (dated.length) {
    for (const r of final)
      r.__range = Object.fromEntries(dated.map((g) => [g.field.name, ranges.get(r)?.[g.spec] ?? false]));
  }
  return final;
}

function aggValues(aggs: Aggregate[], r: Row): Row {
  const out: Row = {};
  for (const x of aggs) {
    const v = r[`a_${x.name}`];
    out[x.name] =
      v === null || v === undefined ? null : x.func === 'sum' && x.field.type === 'integer' ? Math.round(Number(v)) : v;
  }
  return out;
}
