/**
 * Odoo 15's CRM data: the sales team of `sales_team` ("Sales", `sales_team.team_sales_department`)
 * and the four stages of `crm/data/crm_stage_data.xml` (New, Qualified, Proposition, Won).
 */
import type { Seeder } from './ensure.js';

export const PIPELINE_MODULES = ['crm', 'sales_team'];

export async function ensurePipeline(s: Seeder): Promise<void> {
  // Shared by every company (no company_id), so each company's leads find it.
  await s.ensure('sales_team.team_sales_department', 'crm.team', { name: 'Sales', sequence: 10, company_id: false });
  const stages: [string, string, number, boolean][] = [
    ['stage_lead1', 'New', 1, false],
    ['stage_lead2', 'Qualified', 2, false],
    ['stage_lead3', 'Proposition', 3, false],
    ['stage_lead4', 'Won', 70, true],
  ];
  for (const [xmlid, name, sequence, won] of stages)
    await s.ensure(`crm.${xmlid}`, 'crm.stage', { name, sequence, is_won: won, fold: false });
}
