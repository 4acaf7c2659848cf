/**
 * The final invoice in the tenant's ERP (Odoo 15 terms): made with the "Create Invoice" wizard
 * (`sale.advance.payment.inv`, regular invoice, down payments deducted), posted with `action_post`,
 * and read back as the office lists it. Amounts leave here in integer minor units of the tenant's
 * currency (`toMinor`: the ERP's decimals rounded as the ERP rounds them, half away from zero).
 */
import type { InvoiceListState, InvoiceSummary } from '@platform/contracts/invoicing.js';
import { toMinor } from '@platform/contracts/money.js';
import type { Erp, ErpRecord } from '@platform/erp';

const INVOICE_FIELDS = [
  'name',
  'state',
  'move_type',
  'partner_id',
  'invoice_date',
  'invoice_date_due',
  'invoice_origin',
  'amount_total',
  'amount_residual',
  'payment_state',
];
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const m2o = (v: unknown): { id: number | null; name: string } =>
  Array.isArray(v) ? { id: Number(v[0]), name: String(v[1] ?? '') } : { id: null, name: '' };

/** An invoice's state for the office's tabs, on the given day (YYYY-MM-DD). */
export function listState(residualMinor: number, due: string | null, today: string): InvoiceListState {
  if (residualMinor <= 0) return 'paid';
  return due && due < today ? 'overdue' : 'open';
}

export function summaryOf(m: ErpRecord, currency: string, today: string): InvoiceSummary {
  const residual = toMinor(Number(m.amount_residual ?? 0), currency);
  const due = str(m.invoice_date_due);
  return {
    id: Number(m.id),
    number: str(m.name) ?? '',
    customer: m2o(m.partner_id),
    invoice_date: str(m.invoice_date),
    due_date: due,
    currency,
    total_minor: toMinor(Number(m.amount_total ?? 0), currency),
    residual_minor: residual,
    state: listState(residual, due, today),
    sale_order: str(m.invoice_origin),
  };
}

/** A customer invoice as the ERP has it (any state), or undefined when the ERP has no such invoice. */
export async function readCustomerInvoice(erp: Erp, id: number): Promise<ErpRecord | undefined> {
  const [m] = await erp.searchRead(
    'account.move',
    [
      ['id', '=', id],
      ['move_type', '=', 'out_invoice'],
    ],
    { fields: INVOICE_FIELDS },
  );
  return m;
}

/** The posted customer invoices, newest first (at most `limit`). */
export async function postedInvoices(erp: Erp, limit: number): Promise<ErpRecord[]> {
  return erp.searchRead(
    'account.move',
    [
      ['move_type', '=', 'out_invoice'],
      ['state', '=', 'posted'],
    ],
    { fields: INVOICE_FIELDS, order: 'invoice_date desc, id desc', limit },
  );
}

/** The order's state, or undefined when the ERP has no such order. */
export async function orderState(erp: Erp, orderId: number): Promise<string | undefined> {
  const [o] = await erp.searchRead('sale.order', [['id', '=', orderId]], { fields: ['state'] });
  return o ? String(o.state) : undefined;
}

/**
 * The order's final invoice if one was made: a customer invoice (not cancelled) with a line for one
 * of the order's goods, not only down payments. What a retry finds instead of invoicing twice.
 */
export async function findFinalInvoice(erp: Erp, orderId: number): Promise<number | undefined> {
  const [o] = await erp.read('sale.order', [orderId], ['invoice_ids']);
  const ids = Array.isArray(o?.invoice_ids) ? (o.invoice_ids as number[]) : [];
  if (!ids.length) return undefined;
  const moves = await erp.searchRead(
    'account.move',
    [
      ['id', 'in', ids],
      ['move_type', '=', 'out_invoice'],
      ['state', '!=', 'cancel'],
    ],
    { fields: ['id'], order: 'id desc' },
  );
  for (const m of moves) {
    const lines = await erp.searchRead('account.move.line', [['move_id', '=', Number(m.id)]], {
      fields: ['sale_line_ids'],
    });
    const saleLines = [...new Set(lines.flatMap((l) => (Array.isArray(l.sale_line_ids) ? l.sale_line_ids : [])))];
    if (!saleLines.length) continue;
    const goods = await erp.search('sale.order.line', [
      ['id', 'in', saleLines as number[]],
      ['is_downpayment', '=', false],
    ]);
    if (goods.length) return Number(m.id);
  }
  return undefined;
}

/** Makes the order's final invoice (the deposit deducted) as a draft: its id. */
export async function makeFinalInvoice(erp: Erp, orderId: number): Promise<number> {
  const context = { active_model: 'sale.order', active_ids: [orderId], active_id: orderId };
  const wizard = await erp.create(
    'sale.advance.payment.inv',
    { advance_payment_method: 'delivered', deduct_down_payments: true },
    context,
  );
  const action = (await erp.call('sale.advance.payment.inv', 'create_invoices', [[wizard]], {
    context: { ...context, open_invoices: true },
  })) as { res_id?: number } | null;
  if (action?.res_id) return Number(action.res_id);
  const found = await findFinalInvoice(erp, orderId);
  if (!found) throw new Error('The ERP made no invoice.');
  return found;
}

/** Posts a draft invoice ("Invoice Posted" then reaches the team chat through the ERP change feed). */
export async function postInvoice(erp: Erp, id: number): Promise<void> {
  const [m] = await erp.read('account.move', [id], ['state']);
  if (m?.state === 'draft') await erp.call('account.move', 'action_post', [[id]]);
}

/** The customer's email address on the invoice's partner, if any. */
export async function partnerEmail(erp: Erp, partnerId: number | null): Promise<string | null> {
  if (!partnerId) return null;
  const [p] = await erp.read('res.partner', [partnerId], ['email']);
  return str(p?.email);
}
