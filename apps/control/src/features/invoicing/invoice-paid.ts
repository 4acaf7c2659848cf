/**
 * A completed checkout of an invoice (docs/payments.md, "Final invoice"): the webhook receiver's
 * hook for sessions of kind `invoice`, run in the tenant's transaction that records the event. The
 * session must be one the platform stored for the invoice, on the tenant's account, for exactly the
 * amount and currency asked; then the row is paid once and an outbox job registers the payment on
 * the ERP invoice (the worker; a redelivered or reordered event finds the row paid and adds nothing).
 */
import { TOPIC_INVOICE_CARD_PAYMENT } from '@platform/contracts';
import type { Queryable } from '@platform/db';
import { enqueue } from '@platform/outbox';
import type { CheckoutSession } from '@platform/providers';

import { checkoutBySession, markCheckoutPaid } from './invoicing.repo.js';

export type InvoiceIgnored = 'not_paid' | 'unknown_session' | 'other_tenant' | 'other_account' | 'amount_mismatch';

/** Why a completed session does not pay the tenant's invoice checkout, or null when it does. */
export function invoiceIgnoredReason(
  s: CheckoutSession,
  tenantId: string,
  row: Awaited<ReturnType<typeof checkoutBySession>>,
): InvoiceIgnored | null {
  if (s.paymentStatus !== 'paid' || !s.paymentIntentId) return 'not_paid';
  if (s.metadata?.tenantId !== tenantId) return 'other_tenant';
  if (!row || String(row.invoice_id) !== s.metadata.ref) return 'unknown_session';
  if (row.account_id !== s.accountId) return 'other_account';
  if (row.amount_minor !== s.amountMinor || row.currency !== s.currency.toUpperCase()) return 'amount_mismatch';
  return null;
}

export async function invoiceCheckoutCompleted(
  tx: Queryable,
  tenantId: string,
  s: CheckoutSession,
): Promise<string | undefined> {
  const row = await checkoutBySession(tx, tenantId, s.sessionId);
  const reason = invoiceIgnoredReason(s, tenantId, row);
  if (reason) return `invoice_${reason}`;
  if (!(await markCheckoutPaid(tx, tenantId, s.sessionId, s.paymentIntentId))) return undefined;
  await enqueue(tx, {
    tenantId,
    topic: TOPIC_INVOICE_CARD_PAYMENT,
    aggregateId: String(row!.invoice_id),
    dedupeKey: `invoice-card-payment:${s.paymentIntentId}`,
    payload: {
      invoiceId: row!.invoice_id,
      amountMinor: row!.amount_minor,
      currency: row!.currency,
      paymentIntentId: s.paymentIntentId!,
      sessionId: s.sessionId,
    },
  });
  return undefined;
}
