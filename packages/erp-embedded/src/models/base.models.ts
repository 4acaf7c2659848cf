/** Models of Odoo's `base` module: currencies, companies, users, partners, external ids, sequences. */
import { f } from '../fields.js';
import type { ModelSpec } from '../registry.js';
import { companyField } from './common.js';

export const PARTNER_TYPES: [string, string][] = [
  ['contact', 'Contact'],
  ['invoice', 'Invoice Address'],
  ['delivery', 'Delivery Address'],
  ['other', 'Other Address'],
  ['private', 'Private Address'],
];

export const baseModels: ModelSpec[] = [
  {
    name: 'res.currency',
    description: 'Currency',
    order: 'active desc, name',
    fields: {
      name: f.char('Currency', { required: true, help: 'Currency Code (ISO 4217)' }),
      full_name: f.char('Name'),
      symbol: f.char('Symbol', { required: true }),
      rounding: f.float('Rounding Factor', { default: 0.01 }),
      decimal_places: f.integer('Decimal Places', { default: 2 }),
      position: f.selection(
        'Symbol Position',
        [
          ['after', 'After Amount'],
          ['before', 'Before Amount'],
        ],
        { default: 'after' },
      ),
      currency_unit_label: f.char('Currency Unit'),
      active: f.boolean('Active', { default: true }),
    },
    constraints: ['CREATE UNIQUE INDEX IF NOT EXISTS res_currency_unique_name ON $T (name)'],
  },
  {
    name: 'res.company',
    description: 'Companies',
    order: 'sequence, name',
    // Odoo: `[('id', 'in', company_ids)]`.
    companyRule: 'id',
    fields: {
      name: f.char('Company Name', { required: true }),
      sequence: f.integer('Sequence', { default: 10 }),
      partner_id: f.many2one('res.partner', 'Partner'),
      currency_id: f.many2one('res.currency', 'Currency'),
      email: f.char('Email'),
      phone: f.char('Phone'),
      website: f.char('Website Link'),
      vat: f.char('Tax ID'),
      company_registry: f.char('Company ID'),
      street: f.char('Street'),
      street2: f.char('Street2'),
      city: f.char('City'),
      zip: f.char('Zip'),
      state_id: f.many2one('res.country.state', 'Fed. State'),
      country_id: f.many2one('res.country', 'Country'),
      active: f.boolean('Active', { default: true }),
      // Odoo 15 (account): the tax new sale lines get when their product names none.
      account_sale_tax_id: f.many2one('account.tax', 'Default Sale Tax'),
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
      state_id: f.many2one('res.country.state', 'State', { ondelete: 'restrict' }),
      country_id: f.many2one('res.country', 'Country', { ondelete: 'restrict' }),
      // account's ranks: > 0 marks a customer / vendor (raised by posted invoices, or set on create).
      customer_rank: f.integer('Customer Rank', { default: 0 }),
      supplier_rank: f.integer('Supplier Rank', { default: 0 }),
      is_company: f.boolean('Is a Company', { default: false }),
      parent_id: f.many2one('res.partner', 'Related Company'),
      child_ids: f.one2many('res.partner', 'parent_id', 'Contact'),
      type: f.selection('Address Type', PARTNER_TYPES, { default: 'contact' }),
      vat: f.char('Tax ID'),
      website: f.char('Website Link'),
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
      company_id: f.many2one('res.company', 'Company', { defaultFn: ({ company }) => company || 1 }),
      // Odoo's table and columns (res_company_users_rel: user_id, cid).
      company_ids: f.many2many('res.company', 'Companies', f.relTable('res_company_users_rel', 'user_id', 'cid')),
    },
    // Internal users are visible across companies in Odoo; no company rule on users.
    companyRule: false,
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
    constraints: [
      'CREATE UNIQUE INDEX IF NOT EXISTS ir_model_data_module_name_uniq_index ON $T (module, name)',
      'CREATE INDEX IF NOT EXISTS ir_model_data_model_res_id_index ON $T (model, res_id)',
    ],
  },
  {
    name: 'ir.sequence',
    description: 'Sequence',
    order: 'name',
    fields: {
      name: f.char('Name', { required: true }),
      code: f.char('Sequence Code'),
      implementation: f.selection(
        'Implementation',
        [
          ['standard', 'Standard'],
          ['no_gap', 'No gap'],
        ],
        { default: 'standard', required: true },
      ),
      prefix: f.char('Prefix', { help: 'e.g. INV/%(year)s/' }),
      suffix: f.char('Suffix'),
      padding: f.integer('Sequence Size', { default: 0, required: true }),
      number_next: f.integer('Next Number', { default: 1, required: true }),
      number_increment: f.integer('Step', { default: 1, required: true }),
      company_id: companyField(),
      active: f.boolean('Active', { default: true }),
    },
  },
];
