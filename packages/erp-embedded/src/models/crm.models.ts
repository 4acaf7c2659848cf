/** CRM models (Odoo 15 `crm` + `utm`), plus the staging attribution fields the platform writes. */
import { f } from '../fields.js';
import type { ModelSpec } from '../registry.js';
import { companyField } from './common.js';

export const PRIORITIES: [string, string][] = [
  ['0', 'Low'],
  ['1', 'Medium'],
  ['2', 'High'],
  ['3', 'Very High'],
];

const named = (name: string, description: string): ModelSpec => ({
  name,
  description,
  fields: { name: f.char('Name', { required: true }), active: f.boolean('Active', { default: true }) },
});

export const crmModels: ModelSpec[] = [
  {
    name: 'crm.tag',
    description: 'CRM Tag',
    order: 'name',
    fields: { name: f.char('Tag Name', { required: true }), color: f.integer('Color Index') },
  },
  named('utm.source', 'UTM Source'),
  named('utm.medium', 'UTM Medium'),
  named('utm.campaign', 'UTM Campaign'),
  {
    name: 'crm.lead',
    description: 'Lead/Opportunity',
    order: 'priority desc, id desc',
    fields: {
      name: f.char('Opportunity', { required: true }),
      type: f.selection(
        'Type',
        [
          ['lead', 'Lead'],
          ['opportunity', 'Opportunity'],
        ],
        { default: 'lead', required: true },
      ),
      contact_name: f.char('Contact Name'),
      partner_name: f.char('Company Name'),
      email_from: f.char('Email'),
      phone: f.char('Phone'),
      mobile: f.char('Mobile'),
      description: f.html('Notes'),
      tag_ids: f.many2many('crm.tag', 'Tags', f.relTable('crm_tag_rel', 'lead_id', 'tag_id')),
      partner_id: f.many2one('res.partner', 'Customer'),
      user_id: f.many2one('res.users', 'Salesperson', { defaultFn: ({ uid }) => uid }),
      company_id: companyField(),
      street: f.char('Street'),
      street2: f.char('Street2'),
      zip: f.char('Zip'),
      city: f.char('City'),
      state_id: f.many2one('res.country.state', 'State'),
      country_id: f.many2one('res.country', 'Country'),
      // Pipeline (models/pipeline.models.ts): defaults from orm/hooks/crm.hooks.ts.
      team_id: f.many2one('crm.team', 'Sales Team'),
      stage_id: f.many2one('crm.stage', 'Stage', { ondelete: 'restrict' }),
      referred: f.char('Referred By'),
      priority: f.selection('Priority', PRIORITIES, { default: '0' }),
      expected_revenue: f.monetary('Expected Revenue'),
      probability: f.float('Probability'),
      active: f.boolean('Active', { default: true }),
      source_id: f.many2one('utm.source', 'Source'),
      medium_id: f.many2one('utm.medium', 'Medium'),
      campaign_id: f.many2one('utm.campaign', 'Campaign'),
      date_closed: f.datetime('Closed Date'),
      date_deadline: f.date('Expected Closing'),
      // Staging attribution fields (custom `x_` fields on the production Odoo).
      x_form_source: f.char('Form Source'),
      x_form_magnet_popup: f.char('Form Magnet Popup'),
      x_gclid: f.char('GCLID'),
      x_gbraid: f.char('GBRAID'),
      x_wbraid: f.char('WBRAID'),
      x_fbclid: f.char('FBCLID'),
      x_utm_term: f.char('UTM Term'),
      x_utm_content: f.char('UTM Content'),
      x_lp_slug: f.char('Landing Page Slug'),
    },
  },
];
