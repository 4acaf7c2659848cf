/**
 * A paid deposit recorded in the tenant's ERP (docs/payments.md, "The deposit in the ERP"): queued
 * once per deposit in the transaction that marks it paid (the webhook, the portal's re-read, the
 * reconciliation or the office's cash/check/bank entry), run by the control plane, which owns the
 * deposit row: the order confirmed, a down-payment invoice posted and paid.
 */
export const TOPIC_DEPOSIT_ERP = 'payments.deposit_erp';

export interface DepositErpPayload {
  /** The quote whose deposit row (`deposit_payments`) says what was paid, how and for how much. */
  quoteId: string;
}

/** The outbox dedupe key: one job per deposit (a quote has one). */
export const depositErpKey = (tenantId: string, quoteId: string) => `deposit-erp:${tenantId}:${quoteId}`;
