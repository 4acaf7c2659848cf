/**
 * A paid deposit in the tenant's ERP, through the Erp port only (Odoo 15 and the embedded ERP speak
 * the same calls): the order confirmed (`action_confirm`), a down-payment invoice from the "Create
 * Invoice" wizard (`sale.advance.payment.inv`, a fixed amount: the deposit as charged), posted
 * (`action_post`), and the payment registered against it (`account.payment.register`). Each step
 * first looks for what an earlier, interrupted attempt made, so a retry never doubles anything: the
 * order's state, the order's down-payment invoice, the payment whose `ref` is the deposit's marker.
 */
import { fromMinor } from '@platform/contracts/money.js';
import type { Erp } from '@platform/erp';
import { AppError } from '@platform/kernel';

import { confirmOrder } from '../sales/sales-erp.js';
import type { DepositMethod } from './deposit.repo.js';

/** The payment's `ref` (the wizard's communication): how a retry finds the payment it made. */
export const depositMarker = (quoteId: string) => `platform-deposit:${quoteId}`;

export interface DepositInErp {
  saleOrderId: number;
  quoteId: string;
  amountMinor: number;
  currency: string;
  method: DepositMethod;
}

const idOf = (v: unknown): number | undefined => (Array.isArray(v) ? Number(v[0]) : undefined);
const ids = (v: unknown): number[] => (Array.isArray(v) ? v.map(Number) : []);

/** The order's down-payment invoice (not cancelled), if an earlier attempt made it. */
export async function downPaymentInvoice(erp: Erp, saleOrderId: number): Promise<number | undefined> {
  const lines = await erp.searchRead(
    'sale.order.line',
    [
      ['order_id', '=', saleOrderId],
      ['is_downpayment', '=', true],
    ],
    { fields: ['invoice_lines'] },
  );
  const invoiceLines = lines.flatMap((l) => ids(l.invoice_lines));
  if (!invoiceLines.length) return undefined;
  const moveIds = [
    ...new Set((await erp.read('account.move.line', invoiceLines, ['move_id'])).map((l) => idOf(l.move_id))),
  ];
  const moves = await erp.read(
    'account.move',
    moveIds.filter((x): x is number => x !== undefined),
    ['state', 'move_type'],
  );
  return moves.find((m) => m.state !== 'cancel' && m.move_type === 'out_invoice')?.id as number | undefined;
}

async function makeDownPaymentInvoice(erp: Erp, d: DepositInErp): Promise<number> {
  const found = await downPaymentInvoice(erp, d.saleOrderId);
  if (found) return found;
  const context = { active_model: 'sale.order', active_ids: [d.saleOrderId], active_id: d.saleOrderId };
  // Fixed, not percentage: what the customer paid is the invoice, to the cent (Odoo's percentage is
  // of the untaxed total; the platform's deposit is of the total with tax, docs/payments.md).
  const wizard = await erp.create(
    'sale.advance.payment.inv',
    { advance_payment_method: 'fixed', fixed_amount: fromMinor(d.amountMinor, d.currency) },
    context,
  );
  try {
    await erp.call('sale.advance.payment.inv', 'create_invoices', [[wizard]], { context });
  } catch (e) {
    // A lost reply: the invoice may exist all the same (one RPC, one ERP transaction).
    const made = await downPaymentInvoice(erp, d.saleOrderId).catch(() => undefined);
    if (made) return made;
    throw e;
  }
  const made = await downPaymentInvoice(erp, d.saleOrderId);
  if (!made) throw new AppError('ERP_UNAVAILABLE', 'The ERP made no down-payment invoice.');
  return made;
}

async function postInvoice(erp: Erp, invoiceId: number): Promise<void> {
  const state = async () => String((await erp.read('account.move', [invoiceId], ['state']))[0]?.state);
  if ((await state()) !== 'draft') return;
  try {
    await erp.call('account.move', 'action_post', [[invoiceId]]);
  } catch (e) {
    if ((await state().catch(() => 'draft')) === 'posted') return;
    throw e;
  }
}

/** A card deposit goes to the "Stripe" bank journal if the ERP has one; cash to cash; the rest to the bank. */
async function journalFor(erp: Erp, method: DepositMethod): Promise<number> {
  const type = method === 'cash' ? 'cash' : 'bank';
  if (method === 'card') {
    const [stripe] = await erp.search('account.journal', [
      ['type', '=', 'bank'],
      ['name', 'ilike', 'stripe'],
    ]);
    if (stripe) return stripe;
  }
  const [journal] = await erp.search('account.journal', [['type', '=', type]], { limit: 1, order: 'id' });
  if (!journal) throw new AppError('ERP_UNAVAILABLE', `The ERP has no ${type} journal to record the deposit in.`);
  return journal;
}

const paymentByMarker = async (erp: Erp, marker: string) =>
  (
    await erp.search('account.payment', [
      ['ref', '=', marker],
      ['state', '!=', 'cancel'],
    ])
  )[0];

async function registerPayment(erp: Erp, d: DepositInErp, invoiceId: number): Promise<number> {
  const marker = depositMarker(d.quoteId);
  const found = await paymentByMarker(erp, marker);
  if (found) return found;
  const context = { active_model: 'account.move', active_ids: [invoiceId], active_id: invoiceId };
  const wizard = await erp.create(
    'account.payment.register',
    {
      journal_id: await journalFor(erp, d.method),
      amount: fromMinor(d.amountMinor, d.currency),
      communication: marker,
    },
    context,
  );
  try {
    await erp.call('account.payment.register', 'action_create_payments', [[wizard]], { context });
  } catch (e) {
    const made = await paymentByMarker(erp, marker).catch(() => undefined);
    if (made) return made;
    throw e;
  }
  const made = await paymentByMarker(erp, marker);
  if (!made) throw new AppError('ERP_UNAVAILABLE', 'The ERP registered no deposit payment.');
  return made;
}

/** Confirm, invoice the down payment, post it, pay it: each step resumed, never doubled. */
export async function recordDepositInErp(
  erp: Erp,
  d: DepositInErp,
): Promise<{ saleOrderId: number; invoiceId: number; paymentId: number }> {
  await confirmOrder(erp, d.saleOrderId);
  const invoiceId = await makeDownPaymentInvoice(erp, d);
  await postInvoice(erp, invoiceId);
  const paymentId = await registerPayment(erp, d, invoiceId);
  return { saleOrderId: d.saleOrderId, invoiceId, paymentId };
}
