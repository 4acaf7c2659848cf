/** Helpdesk models with Odoo Enterprise naming (`helpdesk.team`, `helpdesk.stage`, `helpdesk.ticket`). */
import { f } from '../fields.js';
import type { ModelSpec } from '../registry.js';
import { companyField } from './common.js';
import { PRIORITIES } from './crm.models.js';

export const helpdeskModels: ModelSpec[] = [
  {
    name: 'helpdesk.team',
    description: 'Helpdesk Team',
    order: 'sequence, id',
    fields: {
      name: f.char('Helpdesk Team', { required: true }),
      sequence: f.integer('Sequence', { default: 10 }),
      active: f.boolean('Active', { default: true }),
      ticket_ids: f.one2many('helpdesk.ticket', 'team_id', 'Tickets'),
      stage_ids: f.many2many('helpdesk.stage', 'Stages', f.relTable('team_stage_rel', 'team_id', 'stage_id')),
      company_id: companyField(),
    },
  },
  {
    name: 'helpdesk.stage',
    description: 'Helpdesk Stage',
    order: 'sequence, id',
    fields: {
      name: f.char('Stage Name', { required: true }),
      description: f.text('Requirements'),
      sequence: f.integer('Sequence', { default: 1 }),
      is_close: f.boolean('Closing Stage', { default: false, help: 'Tickets in this stage are considered as done.' }),
      fold: f.boolean('Folded in Kanban', { default: false }),
      team_ids: f.many2many('helpdesk.team', 'Helpdesk Teams', f.relTable('team_stage_rel', 'stage_id', 'team_id')),
    },
  },
  {
    name: 'helpdesk.ticket',
    description: 'Helpdesk Ticket',
    order: 'priority desc, id desc',
    fields: {
      name: f.char('Subject', { required: true }),
      description: f.html('Description'),
      team_id: f.many2one('helpdesk.team', 'Helpdesk Team'),
      stage_id: f.many2one('helpdesk.stage', 'Stage', { ondelete: 'restrict' }),
      partner_id: f.many2one('res.partner', 'Customer'),
      partner_name: f.char('Customer Name'),
      partner_email: f.char('Customer Email'),
      partner_phone: f.char('Customer Phone'),
      user_id: f.many2one('res.users', 'Assigned to'),
      priority: f.selection('Priority', PRIORITIES, { default: '0' }),
      company_id: companyField(),
      active: f.boolean('Active', { default: true }),
    },
  },
];
