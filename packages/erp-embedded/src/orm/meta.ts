/** fields_get, name_search, name_get, default_get: the introspection side of the ORM. */
import { valueError } from '../errors.js';
import { hasColumn } from '../fields.js';
import type { ModelDef } from '../registry.js';
import { fromColumn } from '../values.js';
import type { Env } from './env.js';
import { read } from './read.js';
import { companies } from './rules.js';
import { searchRead } from './search.js';

export function fieldsGet(
  m: ModelDef,
  allfields: unknown,
  attributes: unknown,
): Record<string, Record<string, unknown>> {
  const wanted = Array.isArray(allfields) && allfields.length ? new Set(allfields as string[]) : undefined;
  const attrs = Array.isArray(attributes) && attributes.length ? (attributes as string[]) : undefined;
  const out: Record<string, Record<string, unknown>> = {};
  for (const fd of m.fields.values()) {
    if (wanted && !wanted.has(fd.name)) continue;
    const desc: Record<string, unknown> = {
      type: fd.type,
      string: fd.string,
      required: fd.required,
      readonly: fd.readonly,
      store: fd.store,
      searchable: fd.store || fd.type === 'one2many',
      sortable: hasColumn(fd),
      manual: fd.name.startsWith('x_'),
      company_dependent: false,
      depends: fd.depends ?? [],
      change_default: false,
      name: fd.name,
    };
    if (fd.help) desc.help = fd.help;
    if (fd.relation) desc.relation = fd.relation;
    if (fd.type === 'one2many') desc.relation_field = fd.inverseName;
    if (fd.selection) desc.selection = fd.selection;
    if (fd.type === 'html') desc.sanitize = true;
    if (fd.type === 'char') desc.size = false;
    out[fd.name] = attrs ? Object.fromEntries(attrs.filter((a) => a in desc).map((a) => [a, desc[a]])) : desc;
  }
  return out;
}

export async function nameSearch(
  env: Env,
  m: ModelDef,
  name: unknown,
  args: unknown,
  operator: unknown,
  limit: unknown,
) {
  const domain = Array.isArray(args) ? [...args] : [];
  const op = typeof operator === 'string' ? operator : 'ilike';
  if (typeof name === 'string' && name !== '') domain.push([m.recName, op, name]);
  const rows = await searchRead(env, m, domain, ['display_name'], { limit: limit === undefined ? 100 : limit });
  return rows.map((r) => [r.id, r.display_name]);
}

export async function nameGet(env: Env, m: ModelDef, ids: unknown) {
  const rows = await read(env, m, ids, ['display_name']);
  return rows.map((r) => [r.id, r.display_name]);
}

export async function defaultGet(env: Env, m: ModelDef, fieldsList: unknown): Promise<Record<string, unknown>> {
  if (!Array.isArray(fieldsList)) throw valueError('default_get() expects a list of field names');
  const out: Record<string, unknown> = {};
  const { current } = await companies(env);
  for (const name of fieldsList) {
    const fd = m.fields.get(String(name));
    if (!fd) continue;
    const d = fd.defaultFn ? fd.defaultFn({ uid: env.uid, company: current }) : fd.default;
    if (d !== undefined) out[fd.name] = fd.type === 'many2one' || fd.type === 'selection' ? d : fromColumn(fd, d);
  }
  return out;
}
