/**
 * Odoo `order` strings ("name asc, id desc") validated against the model's fields and compiled to
 * SQL. Field names come from the registry, never from the request text.
 */
import { valueError } from './errors.js';
import { hasColumn } from './fields.js';
import type { ModelDef, ModelRegistry } from './model.types.js';
import { qi, qt } from './schema.js';

const ORDER_RE = /^(\s*([a-z0-9:_]+|"[a-z0-9:_]+")(\s+(desc|asc))?\s*(,|$))+(?<!,)$/i;

export function compileOrder(
  registry: ModelRegistry,
  schema: string,
  m: ModelDef,
  alias: string,
  spec: string | false | null | undefined,
): string {
  const order = spec && String(spec).trim() ? String(spec) : m.order;
  if (!ORDER_RE.test(order)) {
    throw valueError(
      `Invalid "order" specified (${order}). A valid "order" specification is a comma-separated list of valid field names (optionally followed by asc/desc for the direction)`,
    );
  }
  const terms: string[] = [];
  let hasId = false;
  for (const part of order.split(',')) {
    const [rawName, rawDir] = part.trim().split(/\s+/);
    const name = rawName!.replace(/"/g, '');
    const dir = (rawDir ?? 'asc').toUpperCase();
    const fd = m.fields.get(name);
    if (!fd || !(hasColumn(fd) || name === 'id')) throw valueError(`Invalid field '${name}' on model '${m.name}'`);
    if (name === 'id') hasId = true;
    if (fd.type === 'many2one') {
      const co = registry.get(fd.relation!);
      const o = `${alias}_o`;
      const sub = `(SELECT ${o}.${qi(co.recName)} FROM ${qt(schema, co.table)} ${o} WHERE ${o}.id = ${alias}.${qi(name)})`;
      terms.push(`${sub} ${dir}`);
    } else {
      terms.push(`${alias}.${qi(name)} ${dir}`);
    }
  }
  // A unique tie-breaker keeps offset/limit pagination stable.
  if (!hasId) terms.push(`${alias}.id`);
  return terms.join(', ');
}
