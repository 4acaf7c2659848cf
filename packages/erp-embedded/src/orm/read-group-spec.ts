/**
 * The arguments of Odoo 15's `read_group` parsed and checked: aggregate specs (`name`, `name:func`,
 * `name:func(field)`), groupby specs (`field`, `field:interval` on dates), with Odoo's errors.
 */
import { userError, valueError } from '../errors.js';
import { type FieldDef, hasColumn } from '../fields.js';
import type { ModelDef } from '../registry.js';

const AGG_RE = /^(\w+)(?::(\w+)(?:\((\w+)\))?)?$/;
const FUNCTIONS = new Set(['array_agg', 'count', 'count_distinct', 'bool_and', 'bool_or', 'max', 'min', 'avg', 'sum']);
/** Odoo's `group_operator` default: numeric fields sum, the others are not aggregated unless asked. */
const NUMERIC = new Set(['integer', 'float', 'monetary']);
export const INTERVALS = ['hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
export type Interval = (typeof INTERVALS)[number];

export interface Aggregate {
  /** Output key. */
  name: string;
  func: string;
  field: FieldDef;
}

export interface GroupBy {
  /** The spec as given (`create_date:month`): the key of the value in each group. */
  spec: string;
  field: FieldDef;
  interval?: Interval;
}

export function parseAggregates(m: ModelDef, fields: unknown, groupFields: Set<string>): Aggregate[] {
  if (fields === false || fields === null || fields === undefined) fields = [];
  if (!Array.isArray(fields)) throw valueError(`Invalid fields argument: ${JSON.stringify(fields)}`);
  const out: Aggregate[] = [];
  for (const spec of fields) {
    if (spec === 'sequence' || spec === '__count') continue;
    const match = typeof spec === 'string' ? AGG_RE.exec(spec) : null;
    if (!match) throw userError(`Invalid field specification ${JSON.stringify(spec)}.`);
    const [, name, func, fname] = match as unknown as [string, string, string | undefined, string | undefined];
    let agg: Aggregate;
    if (func) {
      const fd = m.fields.get(fname ?? name);
      if (!fd) throw valueError(`Invalid field '${fname ?? name}' on model '${m.name}'`);
      if (!hasColumn(fd)) throw userError(`Cannot aggregate field '${fd.name}'.`);
      if (!FUNCTIONS.has(func)) throw userError(`Invalid aggregation function '${func}'.`);
      agg = { name, func, field: fd };
    } else {
      const fd = m.fields.get(name);
      if (!fd) throw valueError(`Invalid field '${name}' on model '${m.name}'`);
      if (!hasColumn(fd) || !NUMERIC.has(fd.type) || fd.name === 'id') continue;
      agg = { name, func: 'sum', field: fd };
    }
    if (groupFields.has(agg.field.name)) continue;
    if (out.some((a) => a.name === agg.name)) throw userError(`Output name '${agg.name}' is used twice.`);
    out.push(agg);
  }
  return out;
}

export function parseGroupBy(m: ModelDef, groupby: unknown): GroupBy[] {
  if (groupby === false || groupby === null || groupby === undefined) return [];
  const list = typeof groupby === 'string' ? [groupby] : groupby;
  if (!Array.isArray(list) || !list.every((g) => typeof g === 'string'))
    throw valueError(`Invalid groupby: ${JSON.stringify(groupby)}`);
  return [...new Set(list as string[])].map((spec) => {
    const [fname, interval] = spec.split(':') as [string, string | undefined];
    const fd = m.fields.get(fname);
    if (!fd) throw valueError(`Invalid field '${fname}' on model '${m.name}'`);
    if (fd.type === 'many2many')
      throw userError(`Grouping by the many2many field ${m.name}.${fd.name} is not supported by the embedded ERP.`);
    if (!hasColumn(fd)) {
      throw userError(
        `Field ${m.name}.${fd.name} is not a stored field, only stored fields (regular or many2many) are valid for the 'groupby' parameter`,
      );
    }
    if (fd.type === 'date' || fd.type === 'datetime') {
      const iv = (interval ?? 'month') as Interval;
      if (!INTERVALS.includes(iv))
        throw valueError(`Invalid date/time grouping interval '${interval}' (${INTERVALS.join(', ')})`);
      return { spec, field: fd, interval: iv };
    }
    return { spec, field: fd };
  });
}
