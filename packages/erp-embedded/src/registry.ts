/** The model registry: model definitions (Odoo `_name`, `_order`, `_rec_name`) with their fields. */
import { valueError } from './errors.js';
import { f, type FieldDef } from './fields.js';
import type { Env } from './orm/env.js';

/** Values a compute returns for one record (its id plus the fields it sets). */
export type ComputedRow = { id: number } & Record<string, unknown>;

/**
 * A stored computed field group (Odoo `compute=` with `store=True` and `@api.depends`). `depends` are
 * field names of the model or one-level paths through a relational field (`order_line.price_total`,
 * `order_id.state`, `payment_ids.amount`); the ORM recomputes after any create/write/unlink that
 * touches them, on this model or on the related one (see orm/compute.ts).
 */
export interface ComputeSpec {
  fields: string[];
  depends: string[];
  /** The values of `fields` for `ids` of `m` (records gone by then are simply left out). */
  compute: (env: Env, ids: number[], m: ModelDef) => Promise<ComputedRow[]>;
}

export interface ModelSpec {
  name: string;
  description: string;
  /** Default order, Odoo `_order`. */
  order?: string;
  /** Field used as display name, Odoo `_rec_name` (default `name`). */
  recName?: string;
  /**
   * Odoo's `name_get` override as SQL over the record alias `a` (e.g. a state's "Colorado (US)");
   * default: the `_rec_name` column.
   */
  displaySql?: (a: string, schema: string) => string;
  /** Field for child_of / parent_of, Odoo `_parent_name` (default `parent_id` when it exists). */
  parentName?: string;
  /** Text of the ValidationError for a cycle in the parent hierarchy (Odoo's `_check_recursion` constraint). */
  recursionMessage?: string;
  fields: Record<string, Omit<FieldDef, 'name'>>;
  /** Extra table DDL run after creation (unique indexes...); `$T` is the qualified table name. */
  constraints?: string[];
  computes?: ComputeSpec[];
  /**
   * Multi-company record rule: `company_id` (default when the model has a `company_id` many2one to
   * res.company), `id` (res.company itself) or false (no rule, e.g. res.users).
   */
  companyRule?: 'company_id' | 'id' | false;
  /** `ir.sequence` code giving `name` on create when it is missing or "New" (sale.order: `sale.order`). */
  sequenceCode?: string;
}

/** Fields (and computes) one area adds to a model another area defines (Odoo's `_inherit`): models/index.ts. */
export interface ModelExtension {
  model: string;
  fields: ModelSpec['fields'];
  computes?: ComputeSpec[];
}

/** A compute of `target` that depends on fields of another model through `via` (a field of `target`). */
export interface RemoteTrigger {
  target: ModelDef;
  spec: ComputeSpec;
  via: FieldDef;
  /** Fields of the source model whose change fires the trigger. */
  fields: Set<string>;
}

export interface ModelDef {
  name: string;
  table: string;
  description: string;
  order: string;
  recName: string;
  displaySql: ((a: string, schema: string) => string) | undefined;
  parentName: string | undefined;
  recursionMessage: string;
  fields: Map<string, FieldDef>;
  constraints: string[];
  computes: ComputeSpec[];
  /** Computes of other models depending on this model's fields (filled by `finalize`). */
  triggers: RemoteTrigger[];
  companyRule: 'company_id' | 'id' | undefined;
  sequenceCode: string | undefined;
}

export const tableOf = (model: string) => model.replace(/\./g, '_');

export class Registry {
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
