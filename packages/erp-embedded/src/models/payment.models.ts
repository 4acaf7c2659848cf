/**
 * Customer and vendor payments (Odoo 15 `account.payment`) and the "Register Payment" wizard
 * (`account.payment.register`), the path Odoo clients use over RPC: create the wizard with context
 * `{active_model: 'account.move', active_ids: [invoice ids]}`, then call `action_create_payments`.
 * A payment is reconciled with at most one invoice (`reconciled_invoice_ids`). Actions:
 * orm/actions/payment.actions.ts.
 */
import { f } from '../fields.js';
import { todayUtc } from '../orm/lookup.js';
import type { ModelSpec } from '../registry.js';
import { currencyField } from './common.js';

export const PAYMENT_TYPES: [string, string][] = [
  ['outbound', 'Send Money'],
  ['inbound', 'Receive Money'],
];
export const PARTNER_TYPES: [string, string][] = [
  ['customer', 'Customer'],
  ['supplier', 'Vendor'],
];

export const paymentModels: ModelSpec[] = [
  {
    name: 'account.payment',
    description: 'Payments',
    order: 'date desc, name desc, id desc',
    fields: {
      name: f.char('Number', { default: '/', readonly: true }),
      state: f.selection(
        'Status',
        [
          ['draft', 'Draft'],
          ['posted', 'Posted'],
          ['cancel', 'Cancelled'],
        ],
        { required: true, default: 'draft', readonly: true },
      ),
      payment_type: f.selection('Payment Type', PAYMENT_TYPES, { required: true, default: 'inbound' }),
      partner_type: f.selection('Partner Type', PARTNER_TYPES, { default: 'customer' }),
      partner_id: f.many2one('res.partner', 'Customer/Vendor', { ondelete: 'restrict' }),
      amount: f.monetary('Amount'),
      currency_id: currencyField(),
      date: f.date('Date', { required: true, defaultFn: () => todayUtc() }),
      journal_id: f.many2one('account.journal', 'Journal', { required: true }),
      company_id: f.many2one('res.company', 'Company', { required: true }),
      ref: f.char('Memo'),
      reconciled_invoice_ids: f.many2many(
        'account.move',
        'Reconciled Invoices',
        f.relTable('account_payment_invoice_rel', 'payment_id', 'invoice_id'),
      ),
      sequence_prefix: f.char('Sequence Prefix'),
      sequence_number: f.integer('Sequence Number'),
    },
  },
  {
    name: 'account.payment.register',
    description: 'Register Payment',
    recName: 'communication',
    fields: {
      payment_date: f.date('Payment Date', { required: true, defaultFn: () => todayUtc() }),
      amount: f.monetary('Amount'),
      communication: f.char('Memo'),
      journal_id: f.many2one('account.journal', 'Journal'),
      partner_id: f.many2one('res.partner', 'Customer/Vendor'),
      payment_type: f.selection('Payment Type', PAYMENT_TYPES),
      partner_type: f.selection('Partner Type', PARTNER_TYPES),
      currency_id: currencyField(),
      company_id: f.many2one('res.company', 'Company'),
      // Embedded-only: the invoices to pay (Odoo keeps their receivable lines in `line_ids`), filled from
      // the context's active_ids when not given.
      invoice_ids: f.many2many(
        'account.move',
        'Invoices',
        f.relTable('account_payment_register_move_rel', 'wizard_id', 'move_id'),
      ),
      payment_ids: f.many2many(
        'account.payment',
        'Created Payments',
        f.relTable('account_payment_register_payment_rel', 'wizard_id', 'payment_id'),
      ),
    },
  },
];
