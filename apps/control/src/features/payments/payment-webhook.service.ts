/**
 * The payments provider's webhook (docs/payments.md, "The webhook receiver"): verified on the raw
 * body, each event acted on once per tenant (`webhook_receipts`, in the transaction that acts), and
 * only for the tenant that holds the connected account it names. A forged, tampered or stale request
 * changes nothing; an event for an account no tenant holds is acknowledged and ignored.
 */
import { type Db, type Queryable, withTenant } from '@platform/db';
import { recordWebhookReceipt } from '@platform/integrations';
import { AppError } from '@platform/kernel';
import type { CheckoutSession, PaymentWebhookRequest, PaymentWebhookVerifier, RefundNotice } from '@platform/providers';

import { tenantOfAccount, updatePaymentAccountState } from './payments.repo.js';

/** What a later step plugs in: the deposit and invoice flow fulfils a paid checkout here. */
export interface PaymentEventHooks {
  /**
   * Runs in the tenant's transaction that records the receipt: a failure rolls both back (redelivered).
   * Answers why the session was ignored (logged by the route), or nothing when it was acted on.
   */
  checkoutCompleted(tx: Queryable, tenantId: string, session: CheckoutSession): Promise<string | undefined>;
  /** A refund the provider announces (the platform's own or the dashboard's), in the same transaction. */
  refundCreated?(tx: Queryable, tenantId: string, refund: RefundNotice): Promise<string | undefined>;
}

/** Issue 27's next step handles paid checkouts; until then a completed one is recorded and left. */
export const noCheckoutHandling: PaymentEventHooks = { checkoutCompleted: async () => undefined };

export type PaymentWebhookOutcome =
  | { status: 'handled' | 'duplicate'; tenantId: string; eventId: string; type: string; ignored?: string }
  | {
      status: 'ignored';
      reason: 'no_account' | 'unknown_account';
      eventId: string;
      type: string;
      accountId: string | null;
    };

export const PAYMENTS_PROVIDER = 'payments';

export class PaymentWebhookService {
  constructor(
    private readonly db: Db,
    /** Undefined when no webhook secret is configured: every request is refused. */
    private readonly verifier: PaymentWebhookVerifier | undefined,
    private readonly hooks: PaymentEventHooks = noCheckoutHandling,
    /** After a completed checkout was acted on and committed: wakes this process's relay for its job. */
    private readonly onCheckoutRecorded: () => void = () => undefined,
  ) {}

  async receive(request: PaymentWebhookRequest): Promise<PaymentWebhookOutcome> {
    if (!this.verifier) throw new AppError('PAYMENTS_NOT_CONFIGURED', 'Payments webhooks are not configured.');
    const verified = this.verifier.verify(request);
    if (!verified.ok)
      throw new AppError('PAYMENT_WEBHOOK_INVALID', 'The webhook signature does not verify.', {
        details: { reason: verified.reason },
      });
    const { eventId, accountId, type, event } = verified.envelope;
    // The platform's own account's events concern no tenant.
    if (!accountId) return { status: 'ignored', reason: 'no_account', eventId, type, accountId };
    const tenantId = await tenantOfAccount(this.db, accountId);
    if (!tenantId) return { status: 'ignored', reason: 'unknown_account', eventId, type, accountId };
    let ignored: string | undefined;
    const fresh = await withTenant(this.db, tenantId, async (tx) => {
      if (!(await recordWebhookReceipt(tx, tenantId, PAYMENTS_PROVIDER, eventId))) return false;
      if (event?.type === 'account.updated') await updatePaymentAccountState(tx, tenantId, accountId, event.account);
      else if (event?.type === 'checkout.session.completed')
        ignored = await this.hooks.checkoutCompleted(tx, tenantId, event.session);
      else if (event?.type === 'refund.created') ignored = await this.hooks.refundCreated?.(tx, tenantId, event.refund);
      return true;
    });
    if (!fresh) return { status: 'duplicate', tenantId, eventId, type };
    if (event?.type === 'checkout.session.completed' && !ignored) this.onCheckoutRecorded();
    return { status: 'handled', tenantId, eventId, type, ...(ignored ? { ignored } : {}) };
  }
}
