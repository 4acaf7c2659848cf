/** The model registry: model definitions (Odoo `_name`, `_order`, `_rec_name`) with their fields. */
import { f, type FieldDef } from './fields.js';
import { valueError } from './errors.js';

export interface ModelSpec {
  name: string;
  description: string;
  /** Default order, Odoo `_order`. */
  order?: string;
  /** Field used as display name, Odoo `_rec_name` (default `name`). */
  recName?: string;
  /** Field for child_of / parent_of, Odoo `_parent_name` (default `parent_id` when it exists). */
  parentName?: string;
  /** Text of the ValidationError for a cycle in the parent hierarchy (Odoo's `_check_recursion` constraint). */
  recursionMessage?: string;
  fields: Record<string, Omit<FieldDef, 'name'>>;
  /** Extra table DDL run after creation (unique indexes...); `$T` is the qualified table name. */
  constraints?: string[];
}

export interface ModelDef {
  name: string;
  table: string;
  description: string;
  order: string;
  recName: string;
  parentName: string | undefined;
  recursionMessage: string;
  fields: Map<string, FieldDef>;
  constraints: string[];
}

export const tableOf = (model: string) => model.replace(/\./g, '_');

export class Registry {
  readonly models = new Map<string, ModelDef>();

  define(spec: ModelSpec): this {
    const fields = new Map<string, FieldDef>();
    fields.set('id', { name: 'id', ...f.integer('ID', { readonly: true, magic: true }) });
    for (const [name, def] of Object.entries(spec.fields)) fields.set(name, { name, ...def });
    fields.set('display_name', { name: 'display_name', ...f.char('Display Name', { readonly: true, store: false, magic: true }) });
    fields.set('create_uid', { name: 'create_uid', ...f.many2one('res.users', 'Created by', { readonly: true, magic: true }) });
    fields.set('create_date', { name: 'create_date', ...f.datetime('Created on', { readonly: true, magic: true }) });
    fields.set('write_uid', { name: 'write_uid', ...f.many2one('res.users', 'Last Updated by', { readonly: true, magic: true }) });
    fields.set('write_date', { name: 'write_date', ...f.datetime('Last Updated on', { readonly: true, magic: true }) });
    const recName = spec.recName ?? (fields.has('name') ? 'name' : 'id');
    this.models.set(spec.name, {
      name: spec.name,
      table: tableOf(spec.name),
      description: spec.description,
      order: spec.order ?? 'id',
      recName,
      parentName: spec.parentName ?? (fields.has('parent_id') ? 'parent_id' : undefined),
      recursionMessage: spec.recursionMessage ?? `You cannot create recursive ${spec.description} hierarchies.`,
      fields,
      constraints: spec.constraints ?? [],
    });
    return this;
  }

  has(model: string): boolean {
    return this.models.has(model);
  }

  /** Resolves relation defaults once every model is defined (m2m tables follow Odoo's naming). */
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
    return this;
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
