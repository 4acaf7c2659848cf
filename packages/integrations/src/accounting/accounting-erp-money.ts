/**
 * Provider money registered in the ERP the way an Odoo 15 client does it, each marked with a
 * reference carrying the provider's id and looked up by it before anything is created (the ERP is
 * outside our transaction: after a crash between the two, the retry finds the first one):
 * - a payment, prepayment or overpayment applied to the invoice: Odoo's Register Payment wizard
 *   (`account.payment.register` with `active_ids`, then `action_create_payments`) on the Payment
 *   Journal, for the full amount (an excess stays the partner's outstanding credit, as in Odoo);
 *   when nothing is left to pay, a posted customer payment of the partner (outstanding credit);
 * - a credit note applied to the invoice: a posted `out_refund` of that amount reversing it
 *   (`reversed_entry_id`), which lowers the invoice's residual;
 * - a payment deleted at the provider: the ERP payment reset to draft and cancelled; an allocation
 *   removed there: its ERP payment cancelled, or its credit note reset to draft and cancelled.
 */
import type { Erp } from '@platform/erp';

/** Marks an ERP payment as the provider's payment `id`. */
export const paymentRef = (providerPaymentId: string): string => `Accounting payment ${providerPaymentId}`;
const LABEL = { credit_note: 'credit note', prepayment: 'prepayment', overpayment: 'overpayment' } as const;
/** Marks what an allocation created in the ERP (unique per allocated document and invoice). */
export const allocationRef = (kind: keyof typeof LABEL, id: string, invoiceRef: string): string =>
  `Accounting ${LABEL[kind]} ${id} on ${invoiceRef}`;

export interface MoneyIn {
  ref: string;
  amount: number;
  /** YYYY-MM-DD */
  date: string;
}

export async function registerPayment(
  erp: Erp,
  invoiceId: number,
  journalId: number | null,
  m: MoneyIn,
): Promise<number | undefined> {
  const [existing] = await erp.search('account.payment', [['ref', '=', m.ref]], { limit: 1 });
  if (existing) return existing;
  const [inv] = await erp.read('account.move', [invoiceId], ['amount_residual', 'state', 'partner_id']);
  if (!inv || inv['state'] !== 'posted') return undefined;
  if (Number(inv['amount_residual'] ?? 0) <= 0) {
    // Nothing left to reconcile with: the money stays on the partner as outstanding credit.
    const partner = Array.isArray(inv['partner_id']) ? inv['partner_id'][0] : false;
    const id = await erp.create('account.payment', {
      payment_type: 'inbound',
      partner_type: 'customer',
      partner_id: partner,
      amount: m.amount,
      date: m.date,
      ref: m.ref,
      ...(journalId ? { journal_id: journalId } : {}),
    });
    await erp.call('account.payment', 'action_post', [[id]]);
    return id;
  }
  const wizard = await erp.create(
    'account.payment.register',
    { amount: m.amount, payment_date: m.date, communication: m.ref, ...(journalId ? { journal_id: journalId } : {}) },
    { active_model: 'account.move', active_ids: [invoiceId] },
  );
  await erp.call('account.payment.register', 'action_create_payments', [[wizard]]);
  const [paymentId] = await erp.search('account.payment', [['ref', '=', m.ref]], { limit: 1 });
  if (paymentId === undefined) throw new Error(`the ERP registered no payment with ref "${m.ref}"`);
  return paymentId;
}

export async function registerCreditNote(
  erp: Erp,
  invoiceId: number,
  m: MoneyIn & { number: string },
): Promise<number | undefined> {
  const [existing] = await erp.search(
    'account.move',
    [
      ['ref', '=', m.ref],
      ['move_type', '=', 'out_refund'],
    ],
    { limit: 1 },
  );
  let id = existing;
  if (id === undefined) {
    const [inv] = await erp.read('account.move', [invoiceId], ['partner_id', 'state']);
    if (!inv || inv['state'] !== 'posted') return undefined;
    id = await erp.create('account.move', {
      move_type: 'out_refund',
      partner_id: Array.isArray(inv['partner_id']) ? inv['partner_id'][0] : false,
      reversed_entry_id: invoiceId,
      ref: m.ref,
      invoice_date: m.date,
      // The amount applied at the provider, tax included: one untaxed line, so the ERP credits exactly it.
      invoice_line_ids: [
        [
          0,
          0,
          {
            name: `Credit note ${m.number || ''} applied at the accounting provider`.replace('  ', ' '),
            quantity: 1,
            price_unit: m.amount,
            tax_ids: [[6, 0, []]],
          },
        ],
      ],
    });
  }
  const [cn] = await erp.read('account.move', [id], ['state']);
  if (cn?.['state'] === 'draft') await erp.call('account.move', 'action_post', [[id]]);
  return id;
}

/** Cancels the ERP payment (Odoo 15: `action_draft` unreconciles it, then `action_cancel`). */
export async function undoPayment(erp: Erp, paymentId: number): Promise<void> {
  const [p] = await erp.read('account.payment', [paymentId], ['state']);
  if (!p || p['state'] === 'cancel') return;
  if (p['state'] === 'posted') await erp.call('account.payment', 'action_draft', [[paymentId]]);
  await erp.call('account.payment', 'action_cancel', [[paymentId]]);
}

/** Cancels the ERP credit note (Odoo 15: `button_draft`, then `button_cancel`): the invoice owes it again. */
export async function undoCreditNote(erp: Erp, creditNoteId: number): Promise<void> {
  const [m] = await erp.read('account.move', [creditNoteId], ['state']);
  if (!m || m['state'] === 'cancel') return;
  if (m['state'] === 'posted') await erp.call('account.move', 'button_draft', [[creditNoteId]]);
  await erp.call('account.move', 'button_cancel', [[creditNoteId]]);
}
