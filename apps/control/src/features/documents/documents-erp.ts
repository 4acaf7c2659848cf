/**
 * The ERP records behind the invoice and purchase-order PDFs, read from the tenant's own ERP and
 * turned into plain views: a customer invoice or credit note (`account.move`) with its lines and
 * taxes, and a supplier purchase order (`purchase.order`). Amounts stay in the ERP's major units;
 * the renderers format them in the tenant's currency.
 */
import type { PortalInvoicesAnswer } from '@platform/contracts/quote.js';
import type { Erp, ErpRecord } from '@platform/erp';
import { AppError } from '@platform/kernel';

export interface PartyView {
  name: string;
  lines: string[];
}

export interface InvoiceView {
  id: number;
  number: string;
  state: 'draft' | 'posted' | 'cancel';
  refund: boolean;
  invoice_date: string | null;
  due_date: string | null;
  origin: string | null;
  customer: PartyView;
  lines: {
    description: string;
    quantity: number;
    unit_price: number;
    discount: number;
    taxes: string;
    subtotal: number;
  }[];
  amount_untaxed: number;
  amount_tax: number;
  amount_total: number;
  amount_due: number;
}

export interface PurchaseOrderView {
  id: number;
  number: string;
  state: string;
  order_date: string | null;
  expected: string | null;
  supplier_ref: string | null;
  supplier: PartyView;
  lines: { description: string; quantity: number; unit_cost: number; subtotal: number }[];
  amount_untaxed: number;
  amount_tax: number;
  amount_total: number;
}

const INVOICE_TYPES = ['out_invoice', 'out_refund'];
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v ?? 0) || 0);
const id2 = (v: unknown): number | null => (Array.isArray(v) ? Number(v[0]) : null);
export const documentNotFound = (what: string) => new AppError('NOT_FOUND', `No such ${what}.`);

async function party(erp: Erp, ref: unknown): Promise<PartyView> {
  const id = id2(ref);
  const [p] = id ? await erp.read('res.partner', [id], ['name', 'street', 'city', 'zip', 'email', 'phone']) : [];
  if (!p) return { name: Array.isArray(ref) ? String(ref[1]) : '', lines: [] };
  const place = [str(p.city), str(p.zip)].filter(Boolean).join(' ');
  return {
    name: str(p.name) ?? '',
    lines: [str(p.street), place, str(p.email), str(p.phone)].filter((x): x is string => Boolean(x)),
  };
}

/** Tax names by id, for a column that says which taxes a line bears. */
async function taxNames(erp: Erp, rows: ErpRecord[], field: string): Promise<Map<number, string>> {
  const ids = [...new Set(rows.flatMap((r) => (Array.isArray(r[field]) ? (r[field] as number[]) : [])))];
  const taxes = ids.length ? await erp.read('account.tax', ids, ['name']) : [];
  return new Map(taxes.map((t) => [Number(t.id), String(t.name)]));
}

export async function readInvoice(erp: Erp, id: number): Promise<InvoiceView> {
  const [m] = await erp.searchRead(
    'account.move',
    [
      ['id', '=', id],
      ['move_type', 'in', INVOICE_TYPES],
    ],
    {
      fields: [
        'name',
        'state',
        'move_type',
        'invoice_date',
        'invoice_date_due',
        'invoice_origin',
        'partner_id',
        'amount_untaxed',
        'amount_tax',
        'amount_total',
        'amount_residual',
      ],
    },
  );
  if (!m) throw documentNotFound('invoice');
  const rows = await erp.searchRead('account.move.line', [['move_id', '=', id]], {
    fields: ['name', 'quantity', 'price_unit', 'discount', 'tax_ids', 'price_subtotal', 'sequence'],
    order: 'sequence, id',
  });
  const taxes = await taxNames(erp, rows, 'tax_ids');
  const state = m.state === 'posted' || m.state === 'cancel' ? m.state : 'draft';
  return {
    id,
    number: state === 'draft' || str(m.name) === '/' ? 'Draft' : (str(m.name) ?? ''),
    state,
    refund: m.move_type === 'out_refund',
    invoice_date: str(m.invoice_date),
    due_date: str(m.invoice_date_due),
    origin: str(m.invoice_origin),
    customer: await party(erp, m.partner_id),
    lines: rows.map((l) => ({
      description: str(l.name) ?? '',
      quantity: num(l.quantity),
      unit_price: num(l.price_unit),
      discount: num(l.discount),
      taxes: ((l.tax_ids as number[] | undefined) ?? [])
        .map((t) => taxes.get(t) ?? '')
        .filter(Boolean)
        .join(', '),
      subtotal: num(l.price_subtotal),
    })),
    amount_untaxed: num(m.amount_untaxed),
    amount_tax: num(m.amount_tax),
    amount_total: num(m.amount_total),
    // A draft is not owed yet: what it would ask for is its total.
    amount_due: state === 'draft' ? num(m.amount_total) : num(m.amount_residual),
  };
}

export async function readPurchaseOrder(erp: Erp, id: number): Promise<PurchaseOrderView> {
  const [o] = await erp.searchRead('purchase.order', [['id', '=', id]], {
    fields: [
      'name',
      'state',
      'date_order',
      'date_planned',
      'partner_ref',
      'partner_id',
      'amount_untaxed',
      'amount_tax',
      'amount_total',
    ],
  });
  if (!o) throw documentNotFound('purchase order');
  const rows = await erp.searchRead('purchase.order.line', [['order_id', '=', id]], {
    fields: ['name', 'product_qty', 'price_unit', 'price_subtotal'],
    order: 'sequence, id',
  });
  return {
    id,
    number: str(o.name) ?? '',
    state: str(o.state) ?? 'draft',
    order_date: str(o.date_order),
    expected: str(o.date_planned),
    supplier_ref: str(o.partner_ref),
    supplier: await party(erp, o.partner_id),
    lines: rows.map((l) => ({
      description: str(l.name) ?? '',
      quantity: num(l.product_qty),
      unit_cost: num(l.price_unit),
      subtotal: num(l.price_subtotal),
    })),
    amount_untaxed: num(o.amount_untaxed),
    amount_tax: num(o.amount_tax),
    amount_total: num(o.amount_total),
  };
}

/** The customer invoices and credit notes of a sale order (draft ones included), newest first. */
export async function invoicesOfOrder(erp: Erp, saleOrderId: number): Promise<PortalInvoicesAnswer['invoices']> {
  const [o] = await erp.read('sale.order', [saleOrderId], ['invoice_ids']);
  const ids = (o?.invoice_ids as number[] | undefined) ?? [];
  if (!ids.length) return [];
  const rows = await erp.searchRead(
    'account.move',
    [
      ['id', 'in', ids],
      ['move_type', 'in', INVOICE_TYPES],
      ['state', '!=', 'cancel'],
    ],
    {
      fields: ['name', 'state', 'amount_total', 'amount_residual'],
      order: 'id desc',
    },
  );
  return rows.map((r) => ({
    id: Number(r.id),
    number: r.state === 'posted' ? (str(r.name) ?? '') : 'Draft',
    state: String(r.state),
    amount_total: num(r.amount_total),
    amount_due: r.state === 'posted' ? num(r.amount_residual) : num(r.amount_total),
  }));
}
