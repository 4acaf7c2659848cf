/** The model registry: model definitions (Odoo `_name`, `_order`, `_rec_name`) with their fields. */
import { valueError } from './errors.js';
import { f, type FieldDef } from './fields.js';
import type { ComputeSpec, ModelDef, ModelRegistry, ModelSpec, RemoteTrigger } from './model.types.js';

export const tableOf = (model: string) => model.replace(/\./g, '_');

export type {
  Companies,
  ComputedRow,
  ComputeSpec,
  Env,
  ModelDef,
  ModelExtension,
  ModelRegistry,
  ModelSpec,
  RemoteTrigger,
} from './model.types.js';

export class Registry implements ModelRegistry {
  readonly models = new Map<string, ModelDef>();

  define(spec: ModelSpec): this {
    const fields = new Map<string, FieldDef>();
    fields.set('id', { name: 'id', ...f.integer('ID', { readonly: true, magic: true }) });
    for (const [name, def] of Object.entries(spec.fields)) fields.set(name, { name, ...def });
    fields.set('display_name', {
      name: 'display_name',
      ...f.char('Display Name', { readonly: true, store: false, magic: true }),
    });
    fields.set('create_uid', {
      name: 'create_uid',
      ...f.many2one('res.users', 'Created by', { readonly: true, magic: true }),
    });
    fields.set('create_date', { name: 'create_date', ...f.datetime('Created on', { readonly: true, magic: true }) });
    fields.set('write_uid', {
      name: 'write_uid',
      ...f.many2one('res.users', 'Last Updated by', { readonly: true, magic: true }),
    });
    fields.set('write_date', { name: 'write_date', ...f.datetime('Last Updated on', { readonly: true, magic: true }) });
    const recName = spec.recName ?? (fields.has('name') ? 'name' : 'id');
    const company = fields.get('company_id');
    const companyRule =
      spec.companyRule === false
        ? undefined
        : (spec.companyRule ??
          (company?.type === 'many2one' && company.relation === 'res.company' ? 'company_id' : undefined));
    this.models.set(spec.name, {
      name: spec.name,
      table: tableOf(spec.name),
      description: spec.description,
      order: spec.order ?? 'id',
      recName,
      displaySql: spec.displaySql,
      parentName: spec.parentName ?? (fields.has('parent_id') ? 'parent_id' : undefined),
      recursionMessage: spec.recursionMessage ?? `You cannot create recursive ${spec.description} hierarchies.`,
      fields,
      constraints: spec.constraints ?? [],
      computes: spec.computes ?? [],
      triggers: [],
      companyRule,
      sequenceCode: spec.sequenceCode,
    });
    return this;
  }

  has(model: string): boolean {
    return this.models.has(model);
  }

  /** Resolves relation defaults and compute triggers once every model is defined (m2m tables follow Odoo's naming). */
  finalize(): this {
    for (const m of this.models.values()) {
      for (const fd of m.fields.values()) {
        if (fd.relation && !this.models.has(fd.relation)) {
          throw new Error(`${m.name}.${fd.name}: unknown comodel ${fd.relation}`);
        }
        if (fd.type === 'many2many') {
          const other = tableOf(fd.relation!);
          const [a, b] = [m.table, other].sort();
          fd.relationTable ??= `${a}_${b}_rel`;
          fd.column1 ??= `${m.table}_id`;
          fd.column2 ??= `${other}_id`;
        }
        if (fd.type === 'one2many') {
          const inv = this.models.get(fd.relation!)!.fields.get(fd.inverseName!);
          if (!inv || inv.type !== 'many2one') throw new Error(`${m.name}.${fd.name}: bad inverse ${fd.inverseName}`);
        }
      }
    }
    for (const m of this.models.values()) for (const spec of m.computes) this.linkCompute(m, spec);
    return this;
  }

  private linkCompute(m: ModelDef, spec: ComputeSpec): void {
    for (const name of spec.fields) {
      const fd = m.fields.get(name);
      if (!fd || !fd.store || fd.type === 'one2many' || fd.type === 'many2many')
        throw new Error(`${m.name}: cannot compute ${name}`);
      Object.assign(fd, { computed: true, readonly: true, depends: spec.depends });
    }
    const remote = new Map<string, RemoteTrigger>();
    for (const dep of spec.depends) {
      const [head, sub, ...rest] = dep.split('.');
      const via = m.fields.get(head!);
      if (!via || rest.length) throw new Error(`${m.name}: bad dependency ${dep}`);
      if (sub === undefined) continue;
      const source = via.relation ? this.models.get(via.relation) : undefined;
      if (!source?.fields.has(sub)) throw new Error(`${m.name}: bad dependency ${dep}`);
      let t = remote.get(source.name + via.name);
      if (!t) {
        t = { target: m, spec, via, fields: new Set(via.type === 'one2many' ? [via.inverseName!] : []) };
        remote.set(source.name + via.name, t);
        source.triggers.push(t);
      }
      t.fields.add(sub);
    }
  }

  get(model: string): ModelDef {
    const m = this.models.get(model);
    if (!m) throw new Error(`unknown model ${model}`);
    return m;
  }
}

export function fieldOf(m: ModelDef, name: string): FieldDef {
  const fd = m.fields.get(name);
  if (!fd) throw valueError(`Invalid field '${name}' on model '${m.name}'`);
  return fd;
}

/** The SQL giving a record's display name (Odoo `display_name` / `name_get`) over alias `a`. */
export const displayExpr = (m: ModelDef, a: string, schema: string): string =>
  m.displaySql ? m.displaySql(a, schema) : `${a}."${m.recName}"`;
