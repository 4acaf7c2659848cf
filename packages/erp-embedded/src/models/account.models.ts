/**
 * Invoicing (Odoo 15 `account`): taxes, journals, journal entries / invoices and their lines.
 * Only product lines are stored (Odoo's `invoice_line_ids`); there are no receivable / tax journal
 * items and no chart of accounts. Payments: payment.models.ts. Actions: orm/actions/account.actions.ts.
 */
import { f } from '../fields.js';
import { isZero, round2, rows, tbl, todayUtc } from '../orm/lookup.js';
import type { ComputeSpec, ModelSpec } from '../registry.js';
import { qi, qt } from '../schema.js';
import { companyField, currencyField, lineAmounts, related, taxesField } from './common.js';

export const MOVE_TYPES: [string, string][] = [
  ['entry', 'Journal Entry'],
  ['out_invoice', 'Customer Invoice'],
  ['out_refund', 'Customer Credit Note'],
  ['in_invoice', 'Vendor Bill'],
  ['in_refund', 'Vendor Credit Note'],
  ['out_receipt', 'Sales Receipt'],
  ['in_receipt', 'Purchase Receipt'],
];

export const PAYMENT_STATES: [string, string][] = [
  ['not_paid', 'Not Paid'],
  ['in_payment', 'In Payment'],
  ['paid', 'Paid'],
  ['partial', 'Partially Paid'],
  ['reversed', 'Reversed'],
  ['invoicing_legacy', 'Invoicing App Legacy'],
];

export const JOURNAL_TYPES: [string, string][] = [
  ['sale', 'Sales'],
  ['purchase', 'Purchase'],
  ['cash', 'Cash'],
  ['bank', 'Bank'],
  ['general', 'Miscellaneous'],
];

/**
 * Totals from the invoice lines. The residual of a posted invoice is the total less what settles it:
 * its posted payments and the posted credit notes that reverse it (`reversal_move_id`, Odoo's
 * credit note reconciled with its invoice). Never below zero: a payment larger than the amount due
 * is kept whole and its excess stays the partner's outstanding credit, as in Odoo 15 (the payment is
 * then not fully reconciled). A posted credit note that reverses an invoice is settled by it, up to
 * the invoice's total. payment_state follows Odoo 15 `_compute_amount` (`reversed` when credit notes
 * alone settle the invoice), without the bank-reconciliation step that gives `in_payment`.
 */
const moveAmounts: ComputeSpec = {
  fields: ['amount_untaxed', 'amount_tax', 'amount_total', 'amount_residual', 'payment_state'],
  depends: [
    'invoice_line_ids.price_subtotal',
    'invoice_line_ids.price_total',
    'payment_ids.amount',
    'payment_ids.state',
    'payment_ids.reconciled_invoice_ids',
    'reversal_move_id.amount_total',
    'reversal_move_id.state',
    'reversed_entry_id',
    'state',
    'move_type',
  ],
  async compute(env, ids, m) {
    const pay = m.fields.get('payment_ids')!;
    const lines = tbl(env, 'account.move.line');
    const total = (alias: string) =>
      `COALESCE((SELECT sum(l.price_total) FROM ${lines} l WHERE l.move_id = ${alias}.id), 0)`;
    const list = await rows<{
      id: number;
      state: string;
      move_type: string;
      untaxed: number;
      total: number;
      paid: number;
      credited: number;
      reversed_total: number | null;
    }>(
      env,
      `SELECT p.id, p.state, p.move_type,
              COALESCE((SELECT sum(l.price_subtotal) FROM ${lines} l WHERE l.move_id = p.id), 0) AS untaxed,
              ${total('p')} AS total,
              COALESCE((SELECT sum(x.amount) FROM ${qt(env.schema, pay.relationTable!)} r
                 JOIN ${tbl(env, 'account.payment')} x ON x.id = r.${qi(pay.column2!)}
                WHERE r.${qi(pay.column1!)} = p.id AND x.state = 'posted'), 0) AS paid,
              COALESCE((SELECT sum(${total('c')}) FROM ${tbl(env, m.name)} c WHERE c.reversed_entry_id = p.id AND c.state = 'posted'), 0) AS credited,
              (SELECT ${total('o')} FROM ${tbl(env, m.name)} o WHERE o.id = p.reversed_entry_id AND o.state = 'posted') AS reversed_total
         FROM ${tbl(env, m.name)} p WHERE p.id = ANY($1::integer[])`,
      [ids],
    );
    return list.map((r) => {
      const [untaxed, total, paid, credited] = [
        round2(Number(r.untaxed)),
        round2(Number(r.total)),
        round2(Number(r.paid)),
        round2(Number(r.credited)),
      ];
      const posted = r.state === 'posted' && r.move_type !== 'entry';
      // A credit note reversing a posted invoice is applied to it (up to the invoice's total).
      const applied = r.reversed_total === null ? 0 : Math.min(total, round2(Number(r.reversed_total)));
      const residual = posted ? Math.max(0, round2(total - paid - credited - applied)) : total;
      const state = !posted
        ? 'not_paid'
        : isZero(residual)
          ? paid === 0 && credited > 0
            ? 'reversed'
            : 'paid'
          : paid + credited + applied > 0
            ? 'partial'
            : 'not_paid';
      return {
        id: r.id,
        amount_untaxed: untaxed,
        amount_tax: round2(total - untaxed),
        amount_total: total,
        amount_residual: residual,
        payment_state: state,
      };
    });
  },
};

export const accountModels: ModelSpec[] = [
  {
    name: 'account.tax',
    description: 'Tax',
    order: 'sequence, id',
    fields: {
      name: f.char('Tax Name', { required: true }),
      amount_type: f.selection('Tax Computation', [['percent', 'Percentage of Price']], {
        default: 'percent',
        required: true,
      }),
      amount: f.float('Amount', { required: true, default: 0 }),
      type_tax_use: f.selection(
        'Tax Type',
        [
          ['sale', 'Sales'],
          ['purchase', 'Purchases'],
          ['none', 'None'],
        ],
        { default: 'sale', required: true },
      ),
      description: f.char('Label on Invoices'),
      sequence: f.integer('Sequence', { default: 1 }),
      company_id: companyField(true),
      active: f.boolean('Active', { default: true }),
    },
  },
  {
    name: 'account.journal',
    description: 'Journal',
    order: 'sequence, type, code',
    fields: {
      name: f.char('Journal Name', { required: true }),
      code: f.char('Short Code', { required: true }),
      type: f.selection('Type', JOURNAL_TYPES, { required: true }),
      sequence: f.integer('Sequence', { default: 10 }),
      refund_sequence: f.boolean('Dedicated Credit Note Sequence', { default: false }),
      currency_id: currencyField(),
      company_id: companyField(true),
      active: f.boolean('Active', { default: true }),
    },
    constraints: ['CREATE UNIQUE INDEX IF NOT EXISTS account_journal_code_company_uniq ON $T (company_id, code)'],
  },
  {
    name: 'account.move',
    description: 'Journal Entry',
    order: 'date desc, name desc, id desc',
    fields: {
      name: f.char('Number', { default: '/', readonly: true }),
      ref: f.char('Reference'),
      date: f.date('Date', { required: true, defaultFn: () => todayUtc() }),
      state: f.selection(
        'Status',
        [
          ['draft', 'Draft'],
          ['posted', 'Posted'],
          ['cancel', 'Cancelled'],
        ],
        { required: true, default: 'draft', readonly: true },
      ),
      move_type: f.selection('Type', MOVE_TYPES, { required: true, default: 'entry' }),
      journal_id: f.many2one('account.journal', 'Journal', { required: true }),
      company_id: f.many2one('res.company', 'Company', { required: true }),
      currency_id: currencyField(),
      partner_id: f.many2one('res.partner', 'Partner', { ondelete: 'restrict' }),
      invoice_date: f.date('Invoice/Bill Date'),
      invoice_date_due: f.date('Due Date'),
      invoice_origin: f.char('Origin'),
      invoice_user_id: f.many2one('res.users', 'Salesperson', { defaultFn: ({ uid }) => uid }),
      payment_reference: f.char('Payment Reference'),
      narration: f.html('Terms and Conditions'),
      invoice_line_ids: f.one2many('account.move.line', 'move_id', 'Invoice lines'),
      amount_untaxed: f.monetary('Untaxed Amount'),
      amount_tax: f.monetary('Tax'),
      amount_total: f.monetary('Total'),
      amount_residual: f.monetary('Amount Due'),
      payment_state: f.selection('Payment Status', PAYMENT_STATES),
      posted_before: f.boolean('Posted Before', { default: false }),
      sequence_prefix: f.char('Sequence Prefix'),
      sequence_number: f.integer('Sequence Number'),
      // Embedded-only: the inverse of account.payment.reconciled_invoice_ids (Odoo finds them through reconciled journal items).
      payment_ids: f.many2many(
        'account.payment',
        'Payments',
        f.relTable('account_payment_invoice_rel', 'invoice_id', 'payment_id'),
      ),
      // Odoo 15: the invoice a credit note reverses, and the credit notes reversing this one.
      reversed_entry_id: f.many2one('account.move', 'Reversal of', { ondelete: 'restrict' }),
      reversal_move_id: f.one2many('account.move', 'reversed_entry_id', 'Reversal Move'),
      // Custom field: the invoice id at the accounting provider, written by the accounting integration.
      x_acct_invoice_id: f.char('Accounting Invoice ID'),
      // Custom field: why this invoice disagrees with the accounting provider (totals, residual, contact,
      // tax mapping); empty when they agree. Written by the accounting integration.
      x_acct_sync_issue: f.char('Accounting Sync Issue'),
    },
    computes: [moveAmounts],
  },
  {
    name: 'account.move.line',
    description: 'Journal Item',
    order: 'date desc, move_name desc, id',
    fields: {
      move_id: f.many2one('account.move', 'Journal Entry', { required: true, ondelete: 'cascade' }),
      move_name: f.char('Number'),
      sequence: f.integer('Sequence', { default: 10 }),
      name: f.char('Label'),
      product_id: f.many2one('product.product', 'Product', { ondelete: 'restrict' }),
      quantity: f.float('Quantity', { default: 1.0 }),
      price_unit: f.float('Unit Price', { default: 0 }),
      discount: f.float('Discount (%)', { default: 0 }),
      tax_ids: taxesField('Taxes', 'account_move_line_account_tax_rel', 'account_move_line_id'),
      price_subtotal: f.monetary('Subtotal'),
      price_total: f.monetary('Total'),
      date: f.date('Date'),
      parent_state: f.selection('Parent State', [
        ['draft', 'Draft'],
        ['posted', 'Posted'],
        ['cancel', 'Cancelled'],
      ]),
      partner_id: f.many2one('res.partner', 'Partner'),
      journal_id: f.many2one('account.journal', 'Journal'),
      company_id: f.many2one('res.company', 'Company'),
      currency_id: currencyField(),
    },
    computes: [
      lineAmounts({ qty: 'quantity', taxes: 'tax_ids', discount: true, priceTax: false }),
      related('move_id', {
        move_name: 'name',
        date: 'date',
        parent_state: 'state',
        partner_id: 'partner_id',
        journal_id: 'journal_id',
        company_id: 'company_id',
        currency_id: 'currency_id',
      }),
    ],
  },
];
