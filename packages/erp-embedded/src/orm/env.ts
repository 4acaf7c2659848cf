import type { Env, ModelDef } from '../model.types.js';
import { qt } from '../schema.js';

export type { Companies, Env } from '../model.types.js';

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
