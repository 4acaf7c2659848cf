/**
 * crm.lead and res.partner behaviour of Odoo 15's `crm` / `account` modules that RPC clients see:
 * a new lead gets the default sales team and the first unfolded stage of that team; moving a lead
 * to a won stage sets probability 100 and the closing date; a partner created with the context
 * `res_partner_search_mode` = customer / supplier gets rank 1; a state without a country brings
 * its country (Odoo's `_onchange_state`).
 */
import type { ModelDef } from '../../registry.js';
import { truthy } from '../../values.js';
import type { Env } from '../env.js';
import { asId, nowUtc, one, tbl } from '../lookup.js';
import type { RecordWrites } from '../record-writes.js';
import { companyFor } from './company.js';
import { followPartner } from './fsm.hooks.js';
import type { ModelHooks, Vals } from './hook-types.js';

/** Odoo `crm.team._get_default_team_id`: the context's default, else the first team of the company or shared. */
async function defaultTeam(env: Env, company: number | false): Promise<number | undefined> {
  const r = await one<{ id: number }>(
    env,
    `SELECT id FROM ${tbl(env, 'crm.team')} WHERE active AND (company_id IS NULL OR company_id = $1)
      ORDER BY sequence, name, id LIMIT 1`,
    [company || null],
  );
  return r?.id;
}

/** Odoo `crm.lead._stage_find(domain=[('fold', '=', False)])`: stages of no team or of the lead's team. */
async function defaultStage(env: Env, team: number | undefined): Promise<number | undefined> {
  const r = await one<{ id: number }>(
    env,
    `SELECT id FROM ${tbl(env, 'crm.stage')} WHERE fold IS NOT TRUE AND (team_id IS NULL OR team_id = $1)
      ORDER BY sequence, id LIMIT 1`,
    [team ?? null],
  );
  return r?.id;
}

async function prepareLead(env: Env, m: ModelDef, vals: Vals, ids?: number[]): Promise<void> {
  if (!ids) {
    if (
      !('team_id' in vals) &&
      env.context.default_team_id === undefined &&
      (vals.user_id === undefined || truthy(vals.user_id))
    ) {
      const team = await defaultTeam(env, await companyFor(env, m, vals));
      if (team) vals.team_id = team;
    }
    if (!truthy(vals.stage_id) && env.context.default_stage_id === undefined) {
      const stage = await defaultStage(env, asId(vals.team_id) ?? asId(env.context.default_team_id));
      if (stage) vals.stage_id = stage;
    }
  }
  await addressCountry(env, vals);
  const stage = asId(vals.stage_id);
  if (stage) {
    const won = await one<{ is_won: boolean }>(env, `SELECT is_won FROM ${tbl(env, 'crm.stage')} WHERE id = $1`, [
      stage,
    ]);
    if (won?.is_won) {
      vals.probability ??= 100;
      if (!('date_closed' in vals)) vals.date_closed = nowUtc();
    }
  }
}

/** A state given without a country sets the state's country (Odoo's `_onchange_state` in the form). */
async function addressCountry(env: Env, vals: Vals): Promise<void> {
  const state = asId(vals.state_id);
  if (!state || 'country_id' in vals) return;
  const r = await one<{ country_id: number }>(
    env,
    `SELECT country_id FROM ${tbl(env, 'res.country.state')} WHERE id = $1`,
    [state],
  );
  if (r) vals.country_id = r.country_id;
}

async function preparePartner(
  env: Env,
  _m: ModelDef,
  vals: Vals,
  ids: number[] | undefined,
  rw: RecordWrites,
): Promise<void> {
  const mode = env.context.res_partner_search_mode;
  if (!ids && mode === 'customer' && !('customer_rank' in vals)) vals.customer_rank = 1;
  if (!ids && mode === 'supplier' && !('supplier_rank' in vals)) vals.supplier_rank = 1;
  await addressCountry(env, vals);
  if (ids?.length) await followPartner(env, vals, ids, rw);
}

export const crmHooks: Record<string, ModelHooks> = {
  'crm.lead': { prepare: prepareLead },
  'res.partner': { prepare: preparePartner },
};
