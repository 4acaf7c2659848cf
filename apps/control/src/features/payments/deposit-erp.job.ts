/**
 * The outbox job that records a paid deposit in the tenant's ERP (docs/payments.md, "The deposit in
 * the ERP"). Queued in the transaction that marks the row paid, once per deposit (the dedupe key),
 * whichever of the webhook, the portal's re-read, the reconciliation or the office got there first.
 * It runs in the control plane's own relay (it owns the deposit row it reads and completes); the
 * outbox's retries resume an interrupted run, and each ERP step finds what an earlier run made.
 */
import { depositErpKey, type DepositErpPayload, TOPIC_DEPOSIT_ERP } from '@platform/contracts';
import { type Db, type Queryable, withTenant } from '@platform/db';
import { enqueue, type OutboxHandlers, PermanentFailure } from '@platform/outbox';

import { enqueueOrderConfirmed } from '../sales/order-confirmed.enqueue.js';
import type { QuotesService } from '../sales/quotes.service.js';
import type { TenantErps } from '../tenants/tenant-erps.js';
import { findDeposit, markDepositRecorded } from './deposit.repo.js';
import { recordDepositInErp } from './deposit-erp.js';

/** In the caller's transaction (the one that marks the deposit paid): one job per deposit. */
export function enqueueDepositErp(tx: Queryable, tenantId: string, quoteId: string): Promise<number | null> {
  const payload: DepositErpPayload = { quoteId };
  return enqueue(tx, {
    tenantId,
    topic: TOPIC_DEPOSIT_ERP,
    aggregateId: quoteId,
    dedupeKey: depositErpKey(tenantId, quoteId),
    payload,
  });
}

export type DepositErpResult =
  { recorded: { saleOrderId: number; invoiceId: number; paymentId: number } } | { skipped: 'already_recorded' };

export class DepositErpJob {
  constructor(
    private readonly db: Db,
    private readonly erps: TenantErps,
    private readonly quotes: Pick<QuotesService, 'get'>,
  ) {}

  async run(tenantId: string, quoteId: string): Promise<DepositErpResult> {
    const row = await withTenant(this.db, tenantId, (tx) => findDeposit(tx, tenantId, quoteId));
    if (!row || row.status !== 'paid') throw new PermanentFailure('the deposit is not paid');
    if (row.erp_recorded_at) return { skipped: 'already_recorded' };
    const saleOrderId = row.sale_order_id ?? (await this.quotes.get(tenantId, quoteId)).sale_order_id;
    if (!saleOrderId) throw new PermanentFailure('the quote has no ERP order');
    const erp = await this.erps.forTenant(tenantId);
    const recorded = await recordDepositInErp(erp, {
      saleOrderId,
      quoteId,
      amountMinor: row.amount_minor,
      currency: row.currency,
      method: row.method,
    });
    await withTenant(this.db, tenantId, async (tx) => {
      await markDepositRecorded(tx, tenantId, quoteId, recorded);
      // The paid deposit confirmed the order: its supplier orders are drafted now.
      await enqueueOrderConfirmed(tx, tenantId, saleOrderId);
    });
    return { recorded };
  }

  /** The control plane's relay delivers this topic only (the worker has no handler for it). */
  handlers(): OutboxHandlers {
    return { [TOPIC_DEPOSIT_ERP]: (row) => this.run(row.tenant_id, row.payload.quoteId) };
  }
}
