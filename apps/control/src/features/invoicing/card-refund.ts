/**
 * A card refund written in the ERP once, whoever made it (docs/payments.md, "Refunds"): the office's
 * "Refund to the card" writes it as it answers; a refund the provider announces (`refund.created`,
 * also one made in the provider's dashboard) is queued by the webhook's hook and written by the
 * control plane's invoicing relay. Both claim the refund's row first, so an office refund and its own
 * webhook make one credit note and one refund payment; the later one finds them, or waits for the
 * writer holding the lease.
 */
import { type InvoiceCardRefundJob, TOPIC_INVOICE_CARD_REFUND } from '@platform/contracts';
import { type Db, type Queryable, withTenant } from '@platform/db';
import { applyUnderLease, LEASE_SECONDS, untilFree, type WaitOptions } from '@platform/intake';
import { enqueue, type OutboxHandlers } from '@platform/outbox';
import type { RefundNotice } from '@platform/providers';

import type { TenantErps } from '../tenants/tenant-erps.js';
import {
  type CardRefundSource,
  claimCardRefund,
  markCardRefundMirrored,
  releaseCardRefund,
} from './card-refund.repo.js';
import { type CardRefund, mirrorRefund } from './invoice-refunds-erp.js';
import { checkoutByIntent } from './invoicing.repo.js';

export class CardRefundMirror {
  constructor(
    private readonly db: Db,
    private readonly erps: TenantErps,
    /** How a writer waits for another holding the refund's lease (tests shorten the pause). */
    private readonly wait: WaitOptions = {},
  ) {}

  /** The refund's credit note in the ERP, written here or found written (409 IN_PROGRESS after a long wait). */
  async mirror(tenantId: string, r: CardRefund, source: CardRefundSource): Promise<number> {
    return untilFree(async () => {
      const claim = await withTenant(this.db, tenantId, (tx) =>
        claimCardRefund(tx, tenantId, { ...r, source }, LEASE_SECONDS),
      );
      if (claim.state === 'done') return claim.creditNoteId;
      return claim.state === 'claimed' ? this.write(tenantId, r) : undefined;
    }, this.wait);
  }

  private async write(tenantId: string, r: CardRefund): Promise<number> {
    const free = () => withTenant(this.db, tenantId, (tx) => releaseCardRefund(tx, tenantId, r.refundId));
    // Each ERP record is found by its ref before it is made, so a taken-over lease never doubles one.
    const creditNote = await applyUnderLease(
      { forget: free, release: free },
      async () => mirrorRefund(await this.erps.forTenant(tenantId), r),
      () => false,
    );
    await withTenant(this.db, tenantId, (tx) => markCardRefundMirrored(tx, tenantId, r.refundId, creditNote));
    return creditNote;
  }

  /** The relay's handler (the control plane's invoicing relay; the worker has none for this topic). */
  handlers(): OutboxHandlers {
    return {
      [TOPIC_INVOICE_CARD_REFUND]: async (row) => ({
        creditNoteId: await this.mirror(row.tenant_id, row.payload, 'provider'),
      }),
    };
  }
}

/**
 * The webhook's hook for `refund.created`, in the transaction that records the event: a refund of a
 * payment taken through an invoice's pay link, on the account that took it, is queued once (dedupe
 * key per refund). Answers why it was ignored: other payments (a deposit) are not mirrored here.
 */
export async function invoiceRefundCreated(
  tx: Queryable,
  tenantId: string,
  r: RefundNotice,
): Promise<string | undefined> {
  if (r.status === 'failed' || r.status === 'canceled') return 'refund_not_made';
  const row = r.paymentIntentId ? await checkoutByIntent(tx, tenantId, r.paymentIntentId) : undefined;
  if (!row || row.status !== 'paid') return 'refund_unknown_payment';
  if (row.account_id !== r.accountId) return 'refund_other_account';
  if (row.currency !== r.currency || r.amountMinor <= 0) return 'refund_amount_mismatch';
  const payload: InvoiceCardRefundJob = {
    invoiceId: row.invoice_id,
    paymentIntentId: r.paymentIntentId,
    refundId: r.refundId,
    amountMinor: r.amountMinor,
    currency: r.currency,
  };
  await enqueue(tx, {
    tenantId,
    topic: TOPIC_INVOICE_CARD_REFUND,
    aggregateId: String(row.invoice_id),
    dedupeKey: `invoice-card-refund:${r.refundId}`,
    payload,
  });
  return undefined;
}
