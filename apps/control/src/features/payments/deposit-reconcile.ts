/**
 * The reconciliation of a lost webhook (docs/payments.md, "Reconciliation"): periodically, per
 * connected account with an open card deposit, the provider is asked for the checkouts completed
 * since the oldest of them, and each is fed through the webhook's own path (payDeposit): a deposit
 * already paid changes nothing, so a webhook that did arrive is never doubled.
 */
import { type Db, withTenant } from '@platform/db';
import type { PaymentsApi } from '@platform/providers';

import { openCardDeposits } from './deposit.repo.js';
import { payDeposit } from './deposit-paid.js';

/** A little before the oldest open deposit: the session may be made a moment before its row. */
const SLACK_MS = 60_000;

export class DepositReconciler {
  constructor(
    private readonly db: Db,
    private readonly api: PaymentsApi | undefined,
  ) {}

  /** One pass over every tenant's open card deposits; `paid`: the paid sessions fed through (done ones included). */
  async runAll(onError: (err: unknown, tenantId: string) => void = () => {}): Promise<{ paid: number }> {
    const api = this.api;
    if (!api) return { paid: 0 };
    let paid = 0;
    for (const open of await openCardDeposits(this.db)) {
      try {
        const since = new Date(open.oldest.getTime() - SLACK_MS);
        for (const s of await api.listCompletedCheckouts({ accountId: open.account_id, since, limit: 100 })) {
          if (s.metadata?.kind !== 'deposit' || s.metadata.tenantId !== open.tenant_id) continue;
          const ignored = await withTenant(this.db, open.tenant_id, (tx) => payDeposit(tx, open.tenant_id, s));
          if (!ignored) paid++;
        }
      } catch (err) {
        onError(err, open.tenant_id);
      }
    }
    return { paid };
  }
}
