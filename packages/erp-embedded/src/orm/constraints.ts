/** Python-side constraints Odoo checks after a create or write (`@api.constrains`), inside the call's transaction. */
import { validationError } from '../errors.js';
import type { ModelDef } from '../registry.js';
import { qi } from '../schema.js';
import { type Env, tableSql } from './env.js';

/** The parent many2one of a model whose hierarchy points at itself (res.partner.parent_id), if any. */
export function hierarchyField(m: ModelDef): string | undefined {
  const fd = m.parentName ? m.fields.get(m.parentName) : undefined;
  return fd?.type === 'many2one' && fd.relation === m.name ? fd.name : undefined;
}

/**
 * Odoo's `_check_recursion`: refuses the change when one of `ids` becomes its own ancestor. Every new
 * cycle passes through a record whose parent changed or that gained a child, so walking up from
 * `ids` finds it. UNION (not UNION ALL) stops the walk on an older cycle that does not reach `ids`.
 */
export async function checkRecursion(env: Env, m: ModelDef, ids: number[]): Promise<void> {
  const parent = hierarchyField(m);
  if (!parent || ids.length === 0) return;
  const p = qi(parent);
  const t = tableSql(env, m);
  const r = await env.q.query(
    `WITH RECURSIVE up(start, id) AS (
       SELECT id, ${p} FROM ${t} WHERE id = ANY($1::integer[]) AND ${p} IS NOT NULL
       UNION
       SELECT up.start, x.${p} FROM up JOIN ${t} x ON x.id = up.id WHERE x.${p} IS NOT NULL AND up.id <> up.start
     ) SELECT 1 FROM up WHERE id = start LIMIT 1`,
    [ids],
  );
  if (r.rows.length > 0) throw validationError(m.recursionMessage);
}

/** True when writing `fields` can change the hierarchy of `m` (its parent, or a one2many to its children). */
export function touchesHierarchy(m: ModelDef, fields: Iterable<string>): boolean {
  const parent = hierarchyField(m);
  if (!parent) return false;
  for (const name of fields) {
    const fd = m.fields.get(name);
    if (name === parent || (fd?.type === 'one2many' && fd.relation === m.name && fd.inverseName === parent))
      return true;
  }
  return false;
}
