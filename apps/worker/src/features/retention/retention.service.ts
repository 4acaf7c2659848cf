/**
 * Keeps the bookkeeping tables bounded (docs/retention.md). Retentions:
 * - idempotency keys: 24 h (as Stripe does); a retry after that is a new request;
 * - webhook receipts: 30 days, far beyond the 5-minute freshness of a signed SMS webhook, so a
 *   replay whose receipt is gone is refused as stale, and beyond the provider's retry period;
 * - done outbox rows: 7 days, or as long as the receipts when they carry a dedupe key;
 * - rate-limit buckets: once no counted request is left in their window;
 * - outbound webhook deliveries: 30 days after they were delivered or given up (the log a tenant reads).
 */
import type { Db } from '@platform/db';
import { type Clock, systemClock } from '@platform/kernel';

import * as repo from './retention.repo.js';

export interface Retention {
  idempotencyKeyHours: number;
  webhookReceiptDays: number;
  outboxDoneDays: number;
  webhookDeliveryDays: number;
}

export type PruneCounts = {
  idempotencyKeys: number;
  webhookReceipts: number;
  outboxDone: number;
  rateLimitBuckets: number;
  webhookDeliveries: number;
};

const HOUR = 3_600_000;

export class RetentionService {
  constructor(
    private readonly db: Db,
    private readonly retention: Retention,
    private readonly clock: Clock = systemClock,
  ) {}

  async prune(): Promise<PruneCounts> {
    const now = this.clock.now().getTime();
    const ago = (ms: number) => new Date(now - ms);
    const receiptsBefore = ago(this.retention.webhookReceiptDays * 24 * HOUR);
    return {
      idempotencyKeys: await repo.pruneIdempotencyKeys(this.db, ago(this.retention.idempotencyKeyHours * HOUR)),
      webhookReceipts: await repo.pruneWebhookReceipts(this.db, receiptsBefore),
      outboxDone: await repo.pruneDoneOutbox(this.db, ago(this.retention.outboxDoneDays * 24 * HOUR), receiptsBefore),
      rateLimitBuckets: await repo.pruneRateLimitBuckets(this.db, new Date(now)),
      webhookDeliveries: await repo.pruneWebhookDeliveries(
        this.db,
        ago(this.retention.webhookDeliveryDays * 24 * HOUR),
      ),
    };
  }
}
