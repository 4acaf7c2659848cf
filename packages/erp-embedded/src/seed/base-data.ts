/**
 * The records the installed modules bring (Odoo's module data), by external id: currencies, the
 * default product category and the sale down-payment product, the sale / purchase / field-service
 * sequences, field-service stages and team, the helpdesk team and stages, and the main company's
 * journals. Idempotent: run on every new database and on the first use of an existing one in a
 * process, so a database created before a module was added gets its data.
 */
import type { Env } from '../orm/env.js';
import { DEFAULT_JOURNALS } from '../orm/hooks/base.hooks.js';
import { one, tbl } from '../orm/lookup.js';
import { createRecord } from '../orm/write.js';
import { ensureCountries } from './countries.js';
import { Seeder } from './ensure.js';
import { syncIntrospection } from './introspection.js';
import { ensurePipeline, PIPELINE_MODULES } from './pipeline-data.js';
import { ensureStock } from './stock-data.js';

export const BASE_MODULES = [
  'base',
  'product',
  'sale',
  'purchase',
  'account',
  'fieldservice',
  'helpdesk',
  'stock',
  'uom',
  ...PIPELINE_MODULES,
];

export async function ensureCurrencies(s: Seeder): Promise<void> {
  await s.ensure('base.USD', 'res.currency', {
    name: 'USD',
    full_name: 'United States dollar',
    symbol: '$',
    position: 'before',
    currency_unit_label: 'Dollars',
  });
  await s.ensure('base.EUR', 'res.currency', {
    name: 'EUR',
    full_name: 'Euro',
    symbol: '€',
    position: 'after',
    currency_unit_label: 'Euros',
  });
}

async function ensureCompanyJournals(env: Env, company: number): Promise<void> {
  const journals = env.registry.get('account.journal');
  for (const [code, name, type] of DEFAULT_JOURNALS) {
    const found = await one(env, `SELECT 1 FROM ${tbl(env, journals.name)} WHERE company_id = $1 AND code = $2`, [
      company,
      code,
    ]);
    if (!found)
      await createRecord(env, journals, {
        code,
        name,
        type,
        company_id: company,
        refund_sequence: type === 'sale' || type === 'purchase',
      });
  }
}

export async function ensureBaseData(env: Env): Promise<void> {
  const s = await Seeder.load(env, BASE_MODULES);
  await ensureCurrencies(s);
  if (s.has('base.main_company')) {
    const company = s.id('base.main_company');
    await env.q.query(`UPDATE ${tbl(env, 'res.company')} SET currency_id = $1 WHERE id = $2 AND currency_id IS NULL`, [
      s.id('base.USD'),
      company,
    ]);
    await ensureCompanyJournals(env, company);
    await ensureStock(s, company);
  }
  await ensureCountries(env);
  await syncIntrospection(env);
  await ensurePipeline(s);

  const all = await s.ensure('product.product_category_all', 'product.category', { name: 'All' });
  // Odoo's sale down-payment product (`sale.advance_product_0`), used by the "Create Invoice" wizard for deposits.
  await s.ensure('sale.advance_product_0', 'product.product', {
    name: 'Down payment',
    type: 'service',
    invoice_policy: 'order',
    categ_id: all,
    list_price: 0,
    purchase_ok: false,
    company_id: false,
  });

  const sequence = (xmlid: string, name: string, code: string, prefix: string) =>
    s.ensure(xmlid, 'ir.sequence', { name, code, prefix, padding: 5, company_id: false });
  await sequence('sale.seq_sale_order', 'Sales Order', 'sale.order', 'S');
  await sequence('purchase.seq_purchase_order', 'Purchase Order', 'purchase.order', 'P');
  await sequence('fieldservice.seq_fsm_order', 'Field Service Order', 'fsm.order', 'FSO');

  const fsmStages: [string, string, number, boolean][] = [
    ['fsm_stage_new', 'New', 10, false],
    ['fsm_stage_scheduled', 'Scheduled', 20, false],
    ['fsm_stage_in_progress', 'In Progress', 30, false],
    ['fsm_stage_completed', 'Completed', 40, true],
    ['fsm_stage_cancelled', 'Cancelled', 50, true],
  ];
  for (const [xmlid, name, sequence, closed] of fsmStages) {
    await s.ensure(`fieldservice.${xmlid}`, 'fsm.stage', {
      name,
      sequence,
      stage_type: 'order',
      is_closed: closed,
      fold: closed,
      is_default: xmlid === 'fsm_stage_new',
      company_id: false,
    });
  }
  await s.ensure('fieldservice.fsm_team_default', 'fsm.team', { name: 'Default Team', sequence: 1, company_id: false });

  const team = await s.ensure('helpdesk.helpdesk_team1', 'helpdesk.team', { name: 'Customer Care', sequence: 1 });
  const stages: [string, string, number, boolean][] = [
    ['stage_new', 'New', 0, false],
    ['stage_in_progress', 'In Progress', 1, false],
    ['stage_solved', 'Solved', 2, true],
  ];
  for (const [xmlid, name, sequence, closing] of stages) {
    await s.ensure(`helpdesk.${xmlid}`, 'helpdesk.stage', {
      name,
      sequence,
      fold: closing,
      is_close: closing,
      team_ids: [[4, team, 0]],
    });
  }
}
