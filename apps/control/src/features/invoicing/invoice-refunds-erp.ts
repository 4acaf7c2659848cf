/**
 * A card refund in the tenant's ERP (Odoo 15 terms): a credit note reversing the invoice and the
 * money paid back. Every record is named after the provider's refund id, so the office's refund and
 * the provider's webhook for the same refund (or a retry of either) find one set of records. The credit
 * note's line names the card payment (its PaymentIntent), which is how what is left to refund of a
 * payment is read back from the ERP.
 */
import type { InvoicePaymentView } from '@platform/contracts/invoicing.js';
import { fromMinor, toMinor } from '@platform/contracts/money.js';
import type { Erp } from '@platform/erp';

import { postInvoice } from './invoicing-erp.js';

const LINE = 'Refund of card payment ';
/** A card payment taken through the pay link names its PaymentIntent in its memo. */
export const CARD_REF = /^Card payment (pi_[A-Za-z0-9_]+)$/;
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** One refund at the provider, as the ERP records it. */
export interface CardRefund {
  invoiceId: number;
  paymentIntentId: string;
  refundId: string;
  amountMinor: number;
  currency: string;
}

/** The credit note and the refund payment of one provider refund, made once. The credit note's id. */
export async function mirrorRefund(erp: Erp, r: CardRefund): Promise<number> {
  const amount = fromMinor(r.amountMinor, r.currency);
  const creditNote = await creditNoteForRefund(erp, {
    invoiceId: r.invoiceId,
    amount,
    ref: `Refund ${r.refundId}`,
    description: `${LINE}${r.paymentIntentId}`,
  });
  await refundPayment(erp, { invoiceId: r.invoiceId, amount, ref: `Card refund ${r.refundId}` });
  return creditNote;
}

/** What the posted credit notes reversing the invoice have refunded of each card payment (by PaymentIntent). */
export async function refundedByIntent(erp: Erp, invoiceId: number, currency: string): Promise<Map<string, number>> {
  const lines = await erp.searchRead(
    'account.move.line',
    [
      ['name', '=like', `${LINE}pi_%`],
      ['move_id.reversed_entry_id', '=', invoiceId],
      ['move_id.move_type', '=', 'out_refund'],
      ['move_id.state', '=', 'posted'],
    ],
    { fields: ['name', 'price_total'] },
  );
  const out = new Map<string, number>();
  for (const l of lines) {
    const intent = String(l.name).slice(LINE.length);
    out.set(intent, (out.get(intent) ?? 0) + toMinor(Number(l.price_total ?? 0), currency));
  }
  return out;
}

/**
 * A refund of part or all of a card payment in the ERP: a credit note (`out_refund` reversing the
 * invoice, one untaxed line of the refunded amount, as the accounting sync records credit notes),
 * posted; found by its `ref` on a retry. The credit note's id.
 */
export async function creditNoteForRefund(
  erp: Erp,
  r: { invoiceId: number; amount: number; ref: string; description: string },
): Promise<number> {
  const [existing] = await erp.search('account.move', [
    ['ref', '=', r.ref],
    ['move_type', '=', 'out_refund'],
  ]);
  let id = existing;
  if (id === undefined) {
    const [inv] = await erp.read('account.move', [r.invoiceId], ['partner_id']);
    id = await erp.create('account.move', {
      move_type: 'out_refund',
      partner_id: Array.isArray(inv?.partner_id) ? inv.partner_id[0] : false,
      reversed_entry_id: r.invoiceId,
      ref: r.ref,
      invoice_line_ids: [[0, 0, { name: r.description, quantity: 1, price_unit: r.amount, tax_ids: [[6, 0, []]] }]],
    });
  }
  await postInvoice(erp, id);
  return id;
}

/**
 * The money paid back: an outbound customer payment (Odoo's "Send Money"), posted. The credit note
 * already settles the invoice (a credit note reversing an invoice is applied to it), so the refund
 * is not reconciled with it and offsets the customer's outstanding credit. Found by `ref` on a retry.
 */
export async function refundPayment(erp: Erp, r: { invoiceId: number; amount: number; ref: string }): Promise<number> {
  const [existing] = await erp.search('account.payment', [['ref', '=', r.ref]], { limit: 1 });
  if (existing) return existing;
  const [inv] = await erp.read('account.move', [r.invoiceId], ['partner_id']);
  const id = await erp.create('account.payment', {
    payment_type: 'outbound',
    partner_type: 'customer',
    partner_id: Array.isArray(inv?.partner_id) ? inv.partner_id[0] : false,
    amount: r.amount,
    ref: r.ref,
  });
  await erp.call('account.payment', 'action_post', [[id]]);
  return id;
}

/** The posted customer payments registered on the invoice, oldest first, with what is left to refund of each card payment. */
export async function paymentsOf(erp: Erp, invoiceId: number, currency: string): Promise<InvoicePaymentView[]> {
  const rows = await erp.searchRead(
    'account.payment',
    [
      ['reconciled_invoice_ids', 'in', [invoiceId]],
      ['state', '=', 'posted'],
    ],
    { fields: ['date', 'amount', 'ref'], order: 'date, id' },
  );
  const refunded = await refundedByIntent(erp, invoiceId, currency);
  return rows.map((r) => {
    const amountMinor = toMinor(Number(r.amount ?? 0), currency);
    const intent = CARD_REF.exec(str(r.ref) ?? '')?.[1];
    return {
      id: Number(r.id),
      date: str(r.date),
      amount_minor: amountMinor,
      memo: str(r.ref) ?? '',
      card: intent !== undefined,
      refundable_minor: intent ? Math.max(0, amountMinor - (refunded.get(intent) ?? 0)) : 0,
    };
  });
}
