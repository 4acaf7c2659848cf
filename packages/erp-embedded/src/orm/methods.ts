/**
 * The public model methods callable over RPC, with Odoo's positional/keyword argument mapping
 * (`odoo.api.call_kw`): record methods take the ids as the first positional argument.
 */
import { accessError, OdooError, userError } from '../errors.js';
import type { ModelDef } from '../registry.js';
import { actionOf } from './actions/index.js';
import { copy, nameCreate } from './copy.js';
import type { Env } from './env.js';
import { tableSql } from './env.js';
import { defaultGet, fieldsGet, nameGet, nameSearch } from './meta.js';
import { normalizeIds, read } from './read.js';
import { readGroup } from './read-group.js';
import { search, searchCount, searchRead } from './search.js';
import { create, unlink, write } from './write.js';

type Kw = Record<string, unknown>;
type Method = (env: Env, m: ModelDef, a: unknown[], kw: Kw) => Promise<unknown> | unknown;

/** Positional argument `i`, else keyword `name`, else `dflt`. */
const arg = (a: unknown[], kw: Kw, i: number, name: string, dflt?: unknown) =>
  a.length > i ? a[i] : name in kw ? kw[name] : dflt;

const METHODS: Record<string, { readonly: boolean; run: Method }> = {
  create: { readonly: false, run: (e, m, a, kw) => create(e, m, arg(a, kw, 0, 'vals_list', kw.vals)) },
  write: { readonly: false, run: (e, m, a, kw) => write(e, m, a[0], arg(a, kw, 1, 'vals')) },
  unlink: { readonly: false, run: (e, m, a) => unlink(e, m, a[0]) },
  read: { readonly: true, run: (e, m, a, kw) => read(e, m, a[0], arg(a, kw, 1, 'fields')) },
  search: {
    readonly: true,
    run: (e, m, a, kw) => {
      const domain = arg(a, kw, 0, 'domain', kw.args);
      if (arg(a, kw, 4, 'count', false)) return searchCount(e, m, domain);
      return search(e, m, domain, {
        offset: arg(a, kw, 1, 'offset'),
        limit: arg(a, kw, 2, 'limit'),
        order: arg(a, kw, 3, 'order'),
      });
    },
  },
  search_read: {
    readonly: true,
    run: (e, m, a, kw) =>
      searchRead(e, m, arg(a, kw, 0, 'domain', []), arg(a, kw, 1, 'fields'), {
        offset: arg(a, kw, 2, 'offset'),
        limit: arg(a, kw, 3, 'limit'),
        order: arg(a, kw, 4, 'order'),
      }),
  },
  search_count: { readonly: true, run: (e, m, a, kw) => searchCount(e, m, arg(a, kw, 0, 'domain', kw.args)) },
  fields_get: {
    readonly: true,
    run: (_e, m, a, kw) => fieldsGet(m, arg(a, kw, 0, 'allfields'), arg(a, kw, 1, 'attributes')),
  },
  name_search: {
    readonly: true,
    run: (e, m, a, kw) =>
      nameSearch(
        e,
        m,
        arg(a, kw, 0, 'name', ''),
        arg(a, kw, 1, 'args'),
        arg(a, kw, 2, 'operator', 'ilike'),
        arg(a, kw, 3, 'limit', 100),
      ),
  },
  name_get: { readonly: true, run: (e, m, a) => nameGet(e, m, a[0]) },
  default_get: { readonly: true, run: (e, m, a, kw) => defaultGet(e, m, arg(a, kw, 0, 'fields_list')) },
  exists: {
    readonly: true,
    run: async (e, m, a) => {
      const ids = normalizeIds(a[0]);
      const r = await e.q.query<{ id: number }>(
        `SELECT id FROM ${tableSql(e, m)} WHERE id = ANY($1::integer[]) ORDER BY id`,
        [ids],
      );
      return r.rows.map((x) => x.id);
    },
  },
  check_access_rights: { readonly: true, run: () => true },
  read_group: {
    readonly: true,
    run: (e, m, a, kw) =>
      readGroup(e, m, {
        domain: arg(a, kw, 0, 'domain', []),
        fields: arg(a, kw, 1, 'fields', []),
        groupby: arg(a, kw, 2, 'groupby', []),
        offset: arg(a, kw, 3, 'offset'),
        limit: arg(a, kw, 4, 'limit'),
        orderby: arg(a, kw, 5, 'orderby'),
        lazy: arg(a, kw, 6, 'lazy', true),
      }),
  },
  copy: { readonly: false, run: (e, m, a, kw) => copy(e, m, normalizeIds(a[0]), arg(a, kw, 1, 'default')) },
  name_create: { readonly: false, run: (e, m, a, kw) => nameCreate(e, m, arg(a, kw, 0, 'name')) },
};

export function resolveMethod(
  env: Pick<Env, 'registry'>,
  model: string,
  method: string,
): { m: ModelDef; readonly: boolean; run: Method } {
  if (method.startsWith('_')) throw accessError(`Private methods (such as ${method}) cannot be called remotely.`);
  const m = env.registry.models.get(model);
  if (!m) throw userError(`Object ${model} doesn't exist`);
  const entry = Object.hasOwn(METHODS, method) ? METHODS[method] : undefined;
  if (entry) return { m, ...entry };
  const action = actionOf(model, method);
  if (!action) throw new OdooError('builtins.AttributeError', `type object '${model}' has no attribute '${method}'`);
  return {
    m,
    readonly: false,
    // Odoo returns None (no `result` on the wire) as null here.
    run: async (e, mm, a, kw) => {
      const ids = action.record ? normalizeIds(a[0]) : [];
      const r = await action.run({ ...e, action: method }, mm, ids, action.record ? a.slice(1) : a, kw);
      return r === undefined ? null : r;
    },
  };
}
