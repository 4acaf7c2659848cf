/**
 * The invoice checkouts whose webhook never came (docs/payments.md, "Final invoice"): a periodic pass
 * asks the provider about each open checkout older than a few minutes and, for one paid, does what
 * the webhook's hook would have done (the row paid, the ERP payment queued). Idempotent with the
 * webhook: whichever comes first pays the row; the other finds it paid and queues nothing.
 */
import { type Db, withTenant } from '@platform/db';
import type { PaymentsApi } from '@platform/providers';

import { invoiceCheckoutCompleted } from './invoice-paid.js';
import { openCheckoutsBefore } from './invoicing.repo.js';

/** How long a checkout may wait for its webhook before the provider is asked. */
export const RECONCILE_AFTER_MS = 5 * 60_000;
const BATCH = 100;

export class InvoiceCheckoutReconciler {
  constructor(
    private readonly db: Db,
    private readonly api: PaymentsApi | undefined,
    private readonly now: () => Date,
  ) {}

  /** One pass: how many checkouts it found paid at the provider and paid here. */
  async runOnce(onError: (err: unknown, sessionId: string) => void = () => {}): Promise<{ paid: number }> {
    if (!this.api) return { paid: 0 };
    let paid = 0;
    const before = new Date(this.now().getTime() - RECONCILE_AFTER_MS);
    for (const c of await openCheckoutsBefore(this.db, before, BATCH)) {
      try {
        const session = await this.api.getCheckout(c.account_id, c.session_id);
        if (session?.status !== 'complete' || session.paymentStatus !== 'paid') continue;
        const ignored = await withTenant(this.db, c.tenant_id, (tx) =>
          invoiceCheckoutCompleted(tx, c.tenant_id, session),
        );
        if (!ignored) paid += 1;
      } catch (err) {
        onError(err, c.session_id);
      }
    }
    return { paid };
  }
}
