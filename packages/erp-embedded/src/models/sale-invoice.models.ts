/**
 * Invoicing from sales orders (Odoo 15 `sale`): the fields it adds to orders, order lines and
 * invoice lines, their stored computes (invoiced quantity, quantity to invoice, invoice status),
 * and the "Create Invoice" wizard `sale.advance.payment.inv`. Actions: orm/actions/sale-invoice.actions.ts.
 */
import { f } from '../fields.js';
import { isZero, round2, rows, tbl } from '../orm/lookup.js';
import type { ComputedRow, ComputeSpec, ModelExtension, ModelSpec } from '../registry.js';
import { qi, qt } from '../schema.js';
import { currencyField, taxesField } from './common.js';

export const INVOICE_STATUS: [string, string][] = [
  ['upselling', 'Upselling Opportunity'],
  ['invoiced', 'Fully Invoiced'],
  ['to invoice', 'To Invoice'],
  ['no', 'Nothing to Invoice'],
];

/** Odoo 15 `sale.order.line._compute_qty_invoiced`, `_compute_qty_to_invoice`, `_compute_invoice_status`. */
const lineInvoicing: ComputeSpec = {
  fields: ['qty_invoiced', 'qty_to_invoice', 'invoice_status'],
  depends: [
    'product_uom_qty',
    'qty_delivered',
    'state',
    'is_downpayment',
    'invoice_lines.quantity',
    'invoice_lines.parent_state',
    'order_id.invoice_count',
  ],
  async compute(env, ids, m) {
    const rel = m.fields.get('invoice_lines')!;
    const list = await rows<{
      id: number;
      qty: number | null;
      delivered: number | null;
      state: string | null;
      dp: boolean | null;
      policy: string | null;
      invoiced: number;
    }>(
      env,
      `SELECT l.id, l.product_uom_qty AS qty, l.qty_delivered AS delivered, l.state, l.is_downpayment AS dp, p.invoice_policy AS policy,
              COALESCE((SELECT sum(CASE WHEN mv.move_type = 'out_refund' THEN -il.quantity ELSE il.quantity END)
                 FROM ${qt(env.schema, rel.relationTable!)} r JOIN ${tbl(env, 'account.move.line')} il ON il.id = r.${qi(rel.column2!)}
                 JOIN ${tbl(env, 'account.move')} mv ON mv.id = il.move_id
                WHERE r.${qi(rel.column1!)} = l.id AND mv.state <> 'cancel'), 0)::double precision AS invoiced
         FROM ${tbl(env, m.name)} l LEFT JOIN ${tbl(env, 'product.product')} p ON p.id = l.product_id
        WHERE l.id = ANY($1::integer[])`,
      [ids],
    );
    return list.map((r): ComputedRow => {
      const invoiced = round2(Number(r.invoiced));
      const confirmed = r.state === 'sale' || r.state === 'done';
      const qty = r.qty ?? 0;
      const base = r.policy === 'delivery' ? (r.delivered ?? 0) : qty;
      const toInvoice = confirmed ? round2(base - invoiced) : 0;
      let status = 'no';
      if (!confirmed) status = 'no';
      else if (r.dp && isZero(toInvoice)) status = 'invoiced';
      else if (!isZero(toInvoice)) status = 'to invoice';
      else if (r.state === 'sale' && r.policy === 'order' && qty >= 0 && (r.delivered ?? 0) - qty > 0.005)
        status = 'upselling';
      else if (invoiced - qty >= -0.005) status = 'invoiced';
      return { id: r.id, qty_invoiced: invoiced, qty_to_invoice: toInvoice, invoice_status: status };
    });
  },
};

/** Odoo 15 `sale.order._get_invoiced` (invoice_count) and `_get_invoice_status`. */
const orderInvoicing: ComputeSpec[] = [
  {
    fields: ['invoice_count'],
    depends: ['invoice_ids', 'invoice_ids.state'],
    async compute(env, ids, m) {
      const rel = m.fields.get('invoice_ids')!;
      return rows<ComputedRow>(
        env,
        `SELECT o.id, (SELECT count(*)::integer FROM ${qt(env.schema, rel.relationTable!)} r WHERE r.${qi(rel.column1!)} = o.id) AS invoice_count
           FROM ${tbl(env, m.name)} o WHERE o.id = ANY($1::integer[])`,
        [ids],
      );
    },
  },
  {
    fields: ['invoice_status'],
    depends: ['state', 'order_line.invoice_status'],
    async compute(env, ids, m) {
      const list = await rows<{ id: number; state: string; statuses: string[] | null }>(
        env,
        `SELECT o.id, o.state, ARRAY(SELECT COALESCE(l.invoice_status, 'no') FROM ${tbl(env, 'sale.order.line')} l WHERE l.order_id = o.id) AS statuses
           FROM ${tbl(env, m.name)} o WHERE o.id = ANY($1::integer[])`,
        [ids],
      );
      return list.map((r) => {
        const s = r.statuses ?? [];
        let status = 'no';
        if (r.state !== 'sale' && r.state !== 'done') status = 'no';
        else if (s.includes('to invoice')) status = 'to invoice';
        else if (s.length && s.every((x) => x === 'invoiced')) status = 'invoiced';
        else if (s.length && s.every((x) => x === 'invoiced' || x === 'upselling')) status = 'upselling';
        return { id: r.id, invoice_status: status };
      });
    },
  },
];

export const saleInvoiceExtensions: ModelExtension[] = [
  {
    model: 'sale.order',
    fields: {
      // Odoo computes invoice_ids from the lines' invoice lines; stored here (filled by the wizard) so that
      // deleting or cancelling an invoice recomputes the order.
      invoice_ids: f.many2many(
        'account.move',
        'Invoices',
        f.relTable('sale_order_invoice_rel', 'order_id', 'invoice_id'),
      ),
      invoice_count: f.integer('Invoice Count'),
      invoice_status: f.selection('Invoice Status', INVOICE_STATUS),
    },
    computes: orderInvoicing,
  },
  {
    model: 'sale.order.line',
    fields: {
      qty_delivered: f.float('Delivered Quantity', { default: 0 }),
      qty_invoiced: f.float('Invoiced Quantity'),
      qty_to_invoice: f.float('To Invoice Quantity'),
      invoice_status: f.selection('Invoice Status', INVOICE_STATUS),
      // Odoo's table and columns.
      invoice_lines: f.many2many(
        'account.move.line',
        'Invoice Lines',
        f.relTable('sale_order_line_invoice_rel', 'order_line_id', 'invoice_line_id'),
      ),
    },
    computes: [lineInvoicing],
  },
  {
    model: 'account.move.line',
    fields: {
      sale_line_ids: f.many2many(
        'sale.order.line',
        'Sales Order Lines',
        f.relTable('sale_order_line_invoice_rel', 'invoice_line_id', 'order_line_id'),
      ),
    },
  },
];

export const ADVANCE_METHODS: [string, string][] = [
  ['delivered', 'Regular invoice'],
  ['percentage', 'Down payment (percentage)'],
  ['fixed', 'Down payment (fixed amount)'],
];

export const saleInvoiceModels: ModelSpec[] = [
  {
    name: 'sale.advance.payment.inv',
    description: 'Sales Advance Payment Invoice',
    fields: {
      advance_payment_method: f.selection('Create Invoice', ADVANCE_METHODS, { default: 'delivered', required: true }),
      deduct_down_payments: f.boolean('Deduct down payments', { default: true }),
      has_down_payments: f.boolean('Has down payments', { readonly: true }),
      product_id: f.many2one('product.product', 'Down Payment Product'),
      count: f.integer('Order Count'),
      amount: f.float('Down Payment Amount', {
        help: 'The percentage of amount to be invoiced in advance, taxes excluded.',
      }),
      fixed_amount: f.monetary('Down Payment Amount (Fixed)', {
        help: 'The fixed amount to be invoiced in advance, taxes excluded.',
      }),
      currency_id: currencyField(),
      company_id: f.many2one('res.company', 'Company'),
      deposit_taxes_id: taxesField(
        'Customer Taxes',
        'account_tax_sale_advance_payment_inv_rel',
        'sale_advance_payment_inv_id',
      ),
      // Invented: the orders (Odoo keeps them in the context's active_ids only).
      sale_order_ids: f.many2many(
        'sale.order',
        'Sales Orders',
        f.relTable('sale_advance_payment_inv_sale_order_rel', 'wizard_id', 'order_id'),
      ),
    },
    // A wizard belongs to its orders' company; no rule of its own.
    companyRule: false,
  },
];
