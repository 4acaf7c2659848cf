/**
 * Model-specific behaviour the generic ORM does not know about (Odoo's create / write / unlink
 * overrides and `@api.constrains`), in one table by model, plus two generic create defaults:
 * the `name` of models with a `sequenceCode` ("New" → S00001) and `currency_id` from the company.
 */
import type { ModelDef } from '../../registry.js';
import { truthy } from '../../values.js';
import type { Env } from '../env.js';
import { one, tbl } from '../lookup.js';
import type { RecordWrites } from '../record-writes.js';
import { nextByCode } from '../sequence.js';
import { accountHooks } from './account.hooks.js';
import { baseHooks } from './base.hooks.js';
import { companyFor } from './company.js';
import { crmHooks } from './crm.hooks.js';
import { fsmHooks } from './fsm.hooks.js';
import type { ModelHooks, Vals } from './hook-types.js';
import { introspectionHooks } from './introspection.hooks.js';
import { paymentHooks } from './payment.hooks.js';
import { saleInvoiceHooks } from './sale-invoice.hooks.js';
import { salesHooks } from './sales.hooks.js';
import { stockHooks } from './stock.hooks.js';

const HOOKS: Record<string, ModelHooks> = {
  ...baseHooks,
  ...salesHooks,
  ...accountHooks,
  ...paymentHooks,
  ...fsmHooks,
  ...crmHooks,
  ...introspectionHooks,
  ...saleInvoiceHooks,
  ...stockHooks,
};

const hooksOf = (m: ModelDef): ModelHooks => HOOKS[m.name] ?? {};

async function createDefaults(env: Env, m: ModelDef, vals: Vals): Promise<void> {
  const company = await companyFor(env, m, vals);
  if (m.sequenceCode && env.context.default_name === undefined && (!truthy(vals.name) || vals.name === 'New')) {
    vals.name = (await nextByCode(env, m.sequenceCode, company)) || 'New';
  }
  const currency = m.fields.get('currency_id');
  if (
    currency &&
    !currency.computed &&
    company &&
    !truthy(vals.currency_id) &&
    env.context.default_currency_id === undefined
  ) {
    const r = await one<{ currency_id: number | null }>(
      env,
      `SELECT currency_id FROM ${tbl(env, 'res.company')} WHERE id = $1`,
      [company],
    );
    if (r?.currency_id) vals.currency_id = r.currency_id;
  }
}

export async function prepareValues(
  env: Env,
  m: ModelDef,
  raw: Vals,
  ids: number[] | undefined,
  rw: RecordWrites,
): Promise<Vals> {
  const vals = { ...raw };
  await hooksOf(m).prepare?.(env, m, vals, ids, rw);
  if (!ids) await createDefaults(env, m, vals);
  return vals;
}

export async function afterCreate(env: Env, m: ModelDef, id: number, vals: Vals, rw: RecordWrites): Promise<void> {
  await hooksOf(m).afterCreate?.(env, m, id, vals, rw);
}

export async function validate(env: Env, m: ModelDef, ids: number[]): Promise<void> {
  await hooksOf(m).validate?.(env, m, ids);
}

export async function beforeUnlink(env: Env, m: ModelDef, ids: number[]): Promise<void> {
  await hooksOf(m).beforeUnlink?.(env, m, ids);
}

/** Called after users change, so cached credential checks do not outlive a password change. */
export function afterChange(env: Env, m: ModelDef): void {
  hooksOf(m).afterChange?.(env, m);
}
