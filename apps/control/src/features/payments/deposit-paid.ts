/**
 * A completed checkout of a deposit (docs/payments.md, "The deposit on acceptance"): the webhook
 * receiver's `checkoutCompleted` hook, run in the tenant's transaction that records the event. The
 * session must be the one stored for the quote, on the tenant's account, for exactly the amount and
 * currency asked; anything else is ignored and logged (never the body). Paid once: a duplicate or
 * reordered event finds the row paid and changes nothing.
 */
import type { Queryable } from '@platform/db';
import type { CheckoutSession } from '@platform/providers';

import { depositBySession, markDepositPaid } from './deposit.repo.js';
import { enqueueDepositErp } from './deposit-erp.job.js';
import type { PaymentEventHooks } from './payment-webhook.service.js';

export type DepositIgnored =
  | 'paid_by_office'
  | 'not_paid'
  | 'not_a_deposit'
  | 'unknown_session'
  | 'other_tenant'
  | 'other_account'
  | 'amount_mismatch';

/** Why a completed session does not pay the tenant's deposit row, or null when it does. */
export function ignoredReason(
  s: CheckoutSession,
  tenantId: string,
  row: Awaited<ReturnType<typeof depositBySession>>,
): DepositIgnored | null {
  if (s.paymentStatus !== 'paid') return 'not_paid';
  if (s.metadata?.kind !== 'deposit') return 'not_a_deposit';
  if (s.metadata.tenantId !== tenantId) return 'other_tenant';
  if (!row || row.quote_id !== s.metadata.ref) return 'unknown_session';
  if (row.account_id !== s.accountId) return 'other_account';
  if (row.amount_minor !== s.amountMinor || row.currency !== s.currency.toUpperCase()) return 'amount_mismatch';
  return null;
}

/**
 * The one path a paid checkout takes, whoever saw it first (the webhook, the customer back on the
 * portal, the reconciliation): the row paid once and, in the same transaction, its one ERP job.
 * Answers why the session was ignored, or nothing.
 */
export async function payDeposit(tx: Queryable, tenantId: string, s: CheckoutSession): Promise<string | undefined> {
  const row = await depositBySession(tx, tenantId, s.sessionId);
  const reason = ignoredReason(s, tenantId, row);
  if (reason) return `deposit_${reason}`;
  // The office recorded a cash/check/bank deposit before the card paid: a second charge to refund.
  if (row!.status === 'paid' && row!.method !== 'card') return 'deposit_paid_by_office';
  if (await markDepositPaid(tx, tenantId, s.sessionId, s.paymentIntentId))
    await enqueueDepositErp(tx, tenantId, row!.quote_id);
  return undefined;
}

/** The receiver's hooks: a deposit's completed checkout pays its row (answers why it did not, to log). */
export const depositPaidHooks: PaymentEventHooks = { checkoutCompleted: payDeposit };
