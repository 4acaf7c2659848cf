/** Odoo 15's CRM pipeline: sales teams (`sales_team` module's `crm.team`) and lead stages (`crm.stage`). */
import { f } from '../fields.js';
import type { ModelSpec } from '../registry.js';
import { companyField } from './common.js';

export const pipelineModels: ModelSpec[] = [
  {
    name: 'crm.team',
    description: 'Sales Team',
    order: 'sequence, name, id',
    fields: {
      name: f.char('Sales Team', { required: true }),
      sequence: f.integer('Sequence', { default: 10 }),
      active: f.boolean('Active', { default: true }),
      company_id: companyField(),
      user_id: f.many2one('res.users', 'Team Leader'),
      color: f.integer('Color Index'),
    },
  },
  {
    name: 'crm.stage',
    description: 'CRM Stages',
    order: 'sequence, name, id',
    fields: {
      name: f.char('Stage Name', { required: true }),
      sequence: f.integer('Sequence', { default: 1 }),
      is_won: f.boolean('Is Won Stage?', { default: false }),
      requirements: f.text('Requirements'),
      team_id: f.many2one('crm.team', 'Sales Team', { ondelete: 'set null' }),
      fold: f.boolean('Folded in Pipeline', { default: false }),
    },
  },
];
