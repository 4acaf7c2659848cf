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

export const SUPERUSER_ID = 1;

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
