/**
 * The types the model registry (registry.ts) and the ORM (orm/) share: a model's definition and
 * computes, the registry as the ORM reads it, and `Env`, what one ORM call runs with. Kept apart so
 * that neither imports the other for its types.
 */
import type { Queryable } from '@platform/db';

import type { FieldDef } from './fields.js';

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
  /**
   * False for a copy of another record's fields that Odoo does not store (a plain `related=` or an
   * `_inherits` delegate): its change is no change of this record, so `write_date` stays.
   */
  touch?: boolean;
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

/** The registry as the ORM reads it (registry.ts builds it). */
export interface ModelRegistry {
  readonly models: Map<string, ModelDef>;
  has(model: string): boolean;
  get(model: string): ModelDef;
}

/** What one ORM call runs with: Odoo's `env` (cursor, uid, context) plus the database's schema. */
export interface Env {
  q: Queryable;
  schema: string;
  registry: ModelRegistry;
  uid: number;
  context: Record<string, unknown>;
  /** Invalidates cached credential checks (set by the ERP service). */
  onUsersChanged?: () => void;
  /** The caller's companies, looked up once per call (orm/rules.ts). */
  companies?: Promise<Companies>;
  /** The business method running (orm/actions), so model hooks can let its own writes through. */
  action?: string;
  /** Odoo's `sudo()`: record rules off, uid unchanged. */
  su?: boolean;
}

/** Odoo's `env.su`, `env.company` and `env.companies` (ids). */
export interface Companies {
  su: boolean;
  current: number | false;
  allowed: number[];
}
