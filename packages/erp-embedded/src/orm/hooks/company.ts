/** The company of a new record: shared by the create defaults (index.ts) and model hooks. */
import type { ModelDef } from '../../registry.js';
import type { Env } from '../env.js';
import { asId } from '../lookup.js';
import { companies } from '../rules.js';
import type { Vals } from './hook-types.js';

/** The company a new record of `m` will get (its values, the context default, else `env.company`). */
export async function companyFor(env: Env, m: ModelDef, vals: Vals): Promise<number | false> {
  if (!m.fields.has('company_id')) return false;
  return asId(vals.company_id) ?? asId(env.context.default_company_id) ?? (await companies(env)).current;
}
