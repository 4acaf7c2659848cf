import type { Queryable } from '@platform/db';
import type { ModelDef, Registry } from '../registry.js';
import { qt } from '../schema.js';

/** What one ORM call runs with: Odoo's `env` (cursor, uid, context) plus the database's schema. */
export interface Env {
  q: Queryable;
  schema: string;
  registry: Registry;
  uid: number;
  context: Record<string, unknown>;
  /** Invalidates cached credential checks (set by the ERP service). */
  onUsersChanged?: () => void;
}

export const tableSql = (env: Pick<Env, 'schema'>, m: ModelDef) => qt(env.schema, m.table);
export const activeTest = (env: Pick<Env, 'context'>) => env.context.active_test !== false;

/** Placeholder allocator: parameters collected in order, `$n` returned for each. */
export class Params {
  readonly values: unknown[] = [];
  private aliasN = 0;
  add(v: unknown, cast?: string): string {
    this.values.push(v);
    return cast ? `$${this.values.length}::${cast}` : `$${this.values.length}`;
  }
  alias(): string {
    return `t${++this.aliasN}`;
  }
}
