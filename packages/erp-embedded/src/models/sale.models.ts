/** Sales (Odoo 15 `sale`): quotations and sales orders with their lines. Actions: orm/actions/sale.actions.ts. */
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

export const SALE_STATES: [string, string][] = [
  ['draft', 'Quotation'],
  ['sent', 'Quotation Sent'],
  ['sale', 'Sales Order'],
  ['done', 'Locked'],
  ['cancel', 'Cancelled'],
];

export const saleModels: ModelSpec[] = [
  {
    name: 'sale.order',
    description: 'Sales Order',
    order: 'date_order desc, id desc',
    sequenceCode: 'sale.order',
    fields: {
      name: f.char('Order Reference', { required: true, default: 'New' }),
      state: f.selection('Status', SALE_STATES, { default: 'draft', readonly: true }),
      partner_id: f.many2one('res.partner', 'Customer', { required: true }),
      partner_invoice_id: f.many2one('res.partner', 'Invoice Address'),
      partner_shipping_id: f.many2one('res.partner', 'Delivery Address'),
      date_order: f.datetime('Order Date', { required: true, defaultFn: () => nowUtc() }),
      validity_date: f.date('Expiration'),
      commitment_date: f.datetime('Delivery Date'),
      client_order_ref: f.char('Customer Reference'),
      origin: f.char('Source Document'),
      note: f.html('Terms and conditions'),
      user_id: f.many2one('res.users', 'Salesperson', { defaultFn: ({ uid }) => uid }),
      ...orderTotalsFields('sale.order.line'),
    },
    computes: [documentAmounts('order_line')],
  },
  {
    name: 'sale.order.line',
    description: 'Sales Order Line',
    order: 'order_id, sequence, id',
    fields: {
      ...orderLineHeadFields('sale.order'),
      product_uom_qty: f.float('Quantity', { default: 1.0, required: true }),
      price_unit: f.float('Unit Price', { required: true, default: 0 }),
      discount: f.float('Discount (%)', { default: 0 }),
      tax_id: taxesField('Taxes', 'account_tax_sale_order_line_rel', 'sale_order_line_id'),
      price_subtotal: f.monetary('Subtotal'),
      price_tax: f.float('Total Tax'),
      price_total: f.monetary('Total'),
      is_downpayment: f.boolean('Is a down payment', { default: false }),
      state: f.selection('Order Status', SALE_STATES),
      company_id: f.many2one('res.company', 'Company'),
      order_partner_id: f.many2one('res.partner', 'Customer'),
      currency_id: currencyField(),
    },
    computes: [
      lineAmounts({ qty: 'product_uom_qty', taxes: 'tax_id', discount: true }),
      related('order_id', {
        state: 'state',
        company_id: 'company_id',
        order_partner_id: 'partner_id',
        currency_id: 'currency_id',
      }),
    ],
  },
];
