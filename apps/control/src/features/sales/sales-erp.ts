/**
 * The quotes' side in the tenant's ERP (through the Erp port): the customer, the sale.order with
 * its lines in one create (atomic in the ERP), reading it back, confirming it. A lost reply to the
 * create is recovered by the marker in `origin`, so a retry never makes a second order.
 */
import type { QuoteCustomer } from '@platform/contracts/quote.js';
import { taxesOf } from '@platform/contracts/quote-tax.js';
import type { Erp, ErpRecord } from '@platform/erp';
import { AppError, isAppError } from '@platform/kernel';

import { leadAttribution } from './lead-attribution.js';
import { lineDescription } from './pricing.js';
import type { QuoteRequest } from './quotes.repo.js';
import { saleTaxes } from './sales-erp-taxes.js';

export const quoteMarker = (quoteId: string) => `platform-quote:${quoteId}`;

export interface ErpOrder {
  id: number;
  name: string;
  state: string;
  partner: { id: number; name: string } | null;
  amount_untaxed: number;
  amount_tax: number;
  amount_total: number;
  date_order: string | null;
  lines: { id: number; description: string; quantity: number; unit_price: number; subtotal: number; total: number }[];
}

const ORDER_FIELDS = ['name', 'state', 'partner_id', 'amount_untaxed', 'amount_tax', 'amount_total', 'date_order'];
const m2o = (v: unknown) => (Array.isArray(v) ? { id: v[0] as number, name: String(v[1]) } : null);

/** An ERP customer's own details (a quote made for an existing customer carries none of its own). */
export async function partnerContact(erp: Erp, partnerId: number): Promise<QuoteCustomer | null> {
  const [p] = await erp.read('res.partner', [partnerId], ['name', 'email', 'phone', 'mobile', 'street', 'city', 'zip']);
  if (!p) return null;
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  return {
    name: text(p.name) ?? '',
    email: text(p.email),
    phone: text(p.mobile) ?? text(p.phone),
    street: text(p.street),
    city: text(p.city),
    zip: text(p.zip),
  };
}

export async function assertPartner(erp: Erp, partnerId: number): Promise<boolean> {
  return (await erp.search('res.partner', [['id', '=', partnerId]], { limit: 1 })).length === 1;
}

/**
 * The customer's partner: the one with this email if any, else the one an earlier attempt of this
 * quote created (its notes carry the quote's marker), else a new one.
 */
async function partnerFor(erp: Erp, quoteId: string, r: QuoteRequest): Promise<number> {
  if (r.partner_id) return r.partner_id;
  const c = r.customer!;
  const marker = quoteMarker(quoteId);
  const found = await erp.search(
    'res.partner',
    c.email ? [['email', '=ilike', c.email]] : [['comment', 'ilike', marker]],
    { limit: 1, order: 'id' },
  );
  if (found[0]) return found[0];
  return erp.create('res.partner', {
    comment: `<p>${marker}</p>`,
    name: c.name,
    email: c.email ?? false,
    phone: c.phone ?? false,
    street: c.street ?? false,
    city: c.city ?? false,
    zip: c.zip ?? false,
    customer_rank: 1,
  });
}

async function findByMarker(erp: Erp, quoteId: string): Promise<number | undefined> {
  return (await erp.search('sale.order', [['origin', '=', quoteMarker(quoteId)]], { limit: 1 }))[0];
}

/** The order's lines (create commands): one per priced window, its product's taxes. */
export async function orderLines(erp: Erp, r: QuoteRequest): Promise<unknown[]> {
  const { taxes, productIds } = await saleTaxes(erp, [...new Set(r.lines.map((l) => l.product_code))]);
  return r.lines.map((l, i) => [
    0,
    0,
    {
      sequence: 10 + i,
      name: lineDescription(l),
      product_uom_qty: 1,
      price_unit: l.unit_price,
      ...(productIds.has(l.product_code) ? { product_id: productIds.get(l.product_code) } : {}),
      tax_id: [[6, 0, taxesOf(taxes, l.product_code).map((t) => t.id)]],
    },
  ]);
}

/** The sale order of the quote: found by its marker (an earlier attempt), else created now. */
export async function ensureOrder(erp: Erp, quoteId: string, r: QuoteRequest): Promise<number> {
  const existing = await findByMarker(erp, quoteId);
  if (existing) return existing;
  const partnerId = await partnerFor(erp, quoteId, r);
  const values = {
    ...(r.lead_id ? await leadAttribution(erp, r.lead_id) : {}),
    partner_id: partnerId,
    origin: quoteMarker(quoteId),
    note: r.note ? r.note : false,
    order_line: await orderLines(erp, r),
  };
  try {
    return await erp.create('sale.order', values);
  } catch (e) {
    // The reply may be lost after the ERP committed: look once before reporting the failure.
    if (!isAppError(e) || e.code !== 'ERP_UNAVAILABLE') throw e;
    const after = await findByMarker(erp, quoteId).catch(() => undefined);
    if (after) return after;
    throw e;
  }
}

function toOrder(o: ErpRecord, lines: ErpRecord[]): ErpOrder {
  return {
    id: o.id,
    name: String(o.name),
    state: String(o.state),
    partner: m2o(o.partner_id),
    amount_untaxed: Number(o.amount_untaxed ?? 0),
    amount_tax: Number(o.amount_tax ?? 0),
    amount_total: Number(o.amount_total ?? 0),
    date_order: typeof o.date_order === 'string' ? o.date_order : null,
    lines: lines.map((l) => ({
      id: l.id,
      description: String(l.name),
      quantity: Number(l.product_uom_qty),
      unit_price: Number(l.price_unit),
      subtotal: Number(l.price_subtotal ?? 0),
      total: Number(l.price_total ?? 0),
    })),
  };
}

export async function readOrders(erp: Erp, ids: number[], withLines: boolean): Promise<Map<number, ErpOrder>> {
  if (!ids.length) return new Map();
  const orders = await erp.read('sale.order', ids, ORDER_FIELDS);
  const lines = withLines
    ? await erp.searchRead('sale.order.line', [['order_id', 'in', ids]], {
        fields: ['order_id', 'name', 'product_uom_qty', 'price_unit', 'price_subtotal', 'price_total'],
        order: 'sequence, id',
      })
    : [];
  return new Map(
    orders.map((o) => [
      o.id,
      toOrder(
        o,
        lines.filter((l) => (l.order_id as [number, string])[0] === o.id),
      ),
    ]),
  );
}

export async function listOrders(
  erp: Erp,
  states: string[],
  page: number,
  pageSize: number,
): Promise<{ items: ErpOrder[]; total: number }> {
  const domain: [string, string, unknown][] = [['state', 'in', states]];
  const [rows, total] = await Promise.all([
    erp.searchRead('sale.order', domain, { fields: ORDER_FIELDS, limit: pageSize, offset: (page - 1) * pageSize }),
    erp.searchCount('sale.order', domain),
  ]);
  return { items: rows.map((o) => toOrder(o, [])), total };
}

/** Confirms a quotation; an order already confirmed is left as it is (a repeated confirm is a no-op). */
export async function confirmOrder(erp: Erp, orderId: number): Promise<string> {
  const state = async () => String((await erp.read('sale.order', [orderId], ['state']))[0]?.state ?? 'missing');
  const before = await state();
  if (before === 'sale' || before === 'done') return before;
  if (before !== 'draft' && before !== 'sent')
    throw new AppError('QUOTE_STATE_CONFLICT', `The quote is ${before} and cannot be confirmed.`, {
      details: { state: before },
    });
  try {
    await erp.call('sale.order', 'action_confirm', [[orderId]]);
  } catch (e) {
    // A lost reply or a concurrent confirm: what counts is the state the order is in now.
    const now = await state().catch(() => undefined);
    if (now === 'sale' || now === 'done') return now;
    throw e;
  }
  return 'sale';
}

export async function markSent(erp: Erp, orderId: number): Promise<void> {
  const s = (await erp.read('sale.order', [orderId], ['state']))[0]?.state;
  if (s === 'draft') await erp.call('sale.order', 'action_quotation_sent', [[orderId]]);
}

/**
 * A note in the quote's chatter, where office staff see it. `messageId` makes it once-only: a note
 * with that Message-Id already on the order (an earlier attempt, a lost reply) is not posted again.
 */
export async function postNote(
  erp: Erp,
  orderId: number,
  html: string,
  author: string,
  messageId: string,
  subject = 'Customer portal',
): Promise<number> {
  const earlier = await erp.search('mail.message', [['message_id', '=', messageId]], { limit: 1 });
  if (earlier[0]) return earlier[0];
  return erp.create('mail.message', {
    message_id: messageId,
    model: 'sale.order',
    res_id: orderId,
    body: html,
    message_type: 'comment',
    email_from: author,
    subject,
  });
}
