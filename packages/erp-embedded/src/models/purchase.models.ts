/** Purchases (Odoo 15 `purchase`): RFQs and purchase orders. Actions: orm/actions/purchase.actions.ts. */
import { f } from '../fields.js';
import { nowUtc } from '../orm/lookup.js';
import type { ModelSpec } from '../registry.js';
import {
  currencyField,
  documentAmounts,
  lineAmounts,
  orderLineHeadFields,
  orderTotalsFields,
  related,
  taxesField,
} from './common.js';

export const PURCHASE_STATES: [string, string][] = [
  ['draft', 'RFQ'],
  ['sent', 'RFQ Sent'],
  ['to approve', 'To Approve'],
  ['purchase', 'Purchase Order'],
  ['done', 'Locked'],
  ['cancel', 'Cancelled'],
];

export const purchaseModels: ModelSpec[] = [
  {
    name: 'purchase.order',
    description: 'Purchase Order',
    order: 'priority desc, id desc',
    sequenceCode: 'purchase.order',
    fields: {
      name: f.char('Order Reference', { required: true, default: 'New' }),
      priority: f.selection(
        'Priority',
        [
          ['0', 'Normal'],
          ['1', 'Urgent'],
        ],
        { default: '0' },
      ),
      origin: f.char('Source Document'),
      partner_ref: f.char('Vendor Reference'),
      state: f.selection('Status', PURCHASE_STATES, { default: 'draft', readonly: true }),
      partner_id: f.many2one('res.partner', 'Vendor', { required: true }),
      date_order: f.datetime('Order Deadline', { required: true, defaultFn: () => nowUtc() }),
      date_approve: f.datetime('Confirmation Date', { readonly: true }),
      date_planned: f.datetime('Receipt Date'),
      notes: f.html('Terms and Conditions'),
      user_id: f.many2one('res.users', 'Purchase Representative', { defaultFn: ({ uid }) => uid }),
      ...orderTotalsFields('purchase.order.line'),
    },
    computes: [documentAmounts('order_line')],
  },
  {
    name: 'purchase.order.line',
    description: 'Purchase Order Line',
    order: 'order_id, sequence, id',
    fields: {
      ...orderLineHeadFields('purchase.order'),
      product_qty: f.float('Quantity', { default: 1.0, required: true }),
      price_unit: f.float('Unit Price', { required: true, default: 0 }),
      taxes_id: taxesField('Taxes', 'account_tax_purchase_order_line_rel', 'purchase_order_line_id'),
      date_planned: f.datetime('Expected Arrival'),
      price_subtotal: f.monetary('Subtotal'),
      price_tax: f.float('Tax'),
      price_total: f.monetary('Total'),
      state: f.selection('Status', PURCHASE_STATES),
      company_id: f.many2one('res.company', 'Company'),
      partner_id: f.many2one('res.partner', 'Partner'),
      currency_id: currencyField(),
    },
    computes: [
      lineAmounts({ qty: 'product_qty', taxes: 'taxes_id' }),
      related('order_id', {
        state: 'state',
        company_id: 'company_id',
        partner_id: 'partner_id',
        currency_id: 'currency_id',
      }),
    ],
  },
];
