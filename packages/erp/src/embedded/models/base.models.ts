/** Models of Odoo's `base` module that the platform uses: companies, users, partners, external ids. */
import { f } from '../fields.js';
import type { ModelSpec } from '../registry.js';

export const PARTNER_TYPES: [string, string][] = [
  ['contact', 'Contact'],
  ['invoice', 'Invoice Address'],
  ['delivery', 'Delivery Address'],
  ['other', 'Other Address'],
  ['private', 'Private Address'],
];

export const baseModels: ModelSpec[] = [
  {
    name: 'res.company',
    description: 'Companies',
    order: 'sequence, name',
    fields: {
      name: f.char('Company Name', { required: true }),
      sequence: f.integer('Sequence', { default: 10 }),
      partner_id: f.many2one('res.partner', 'Partner'),
      email: f.char('Email'),
      phone: f.char('Phone'),
      active: f.boolean('Active', { default: true }),
    },
  },
  {
    name: 'res.partner',
    description: 'Contact',
    order: 'name, id',
    // base res_partner.py `_check_parent_id`.
    recursionMessage: 'You cannot create recursive Partner hierarchies.',
    fields: {
      name: f.char('Name'),
      email: f.char('Email'),
      phone: f.char('Phone'),
      mobile: f.char('Mobile'),
      street: f.char('Street'),
      street2: f.char('Street2'),
      city: f.char('City'),
      zip: f.char('Zip'),
      is_company: f.boolean('Is a Company', { default: false }),
      parent_id: f.many2one('res.partner', 'Related Company'),
      child_ids: f.one2many('res.partner', 'parent_id', 'Contact'),
      type: f.selection('Address Type', PARTNER_TYPES, { default: 'contact' }),
      vat: f.char('Tax ID'),
      comment: f.html('Notes'),
      company_id: f.many2one('res.company', 'Company'),
      user_id: f.many2one('res.users', 'Salesperson'),
      active: f.boolean('Active', { default: true }),
    },
  },
  {
    name: 'res.users',
    description: 'Users',
    order: 'name, login',
    fields: {
      name: f.char('Name', { required: true }),
      login: f.char('Login', { required: true }),
      password: f.char('Password', { secret: true }),
      email: f.char('Email'),
      active: f.boolean('Active', { default: true }),
      partner_id: f.many2one('res.partner', 'Related Partner', { ondelete: 'restrict' }),
      company_id: f.many2one('res.company', 'Company', { default: 1 }),
    },
    constraints: ['CREATE UNIQUE INDEX IF NOT EXISTS res_users_login_key ON $T (login)'],
  },
  {
    name: 'ir.model.data',
    description: 'Model Data',
    order: 'module, model, name',
    recName: 'name',
    fields: {
      name: f.char('External Identifier', { required: true }),
      module: f.char('Module', { required: true }),
      model: f.char('Model Name', { required: true }),
      res_id: f.integer('Record ID'),
      noupdate: f.boolean('Non Updatable', { default: false }),
    },
    // Odoo 15: `ir_model_data_module_name_uniq_index` (module, name).
    constraints: ['CREATE UNIQUE INDEX IF NOT EXISTS ir_model_data_module_name_uniq_index ON $T (module, name)',
      'CREATE INDEX IF NOT EXISTS ir_model_data_model_res_id_index ON $T (model, res_id)'],
  },
];
