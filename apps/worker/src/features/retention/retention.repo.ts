/** Age-based deletes of the platform's bookkeeping tables, in bounded batches (short locks), through each table's owner. */
import type { Queryable } from '@platform/db';
import { pruneIdleBuckets } from '@platform/http-kit';
import { pruneIdempotencyKeys as pruneKeys } from '@platform/intake';
import { pruneWebhookReceipts as pruneReceipts } from '@platform/integrations';
import { pruneDoneRows } from '@platform/outbox';
import { pruneSettledDeliveries } from '@platform/webhooks';

const BATCH = 5_000;

async function inBatches(pruneBatch: (limit: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await pruneBatch(BATCH);
    total += n;
    if (n < BATCH) return total;
  }
}

export const pruneIdempotencyKeys = (db: Queryable, before: Date) => inBatches((limit) => pruneKeys(db, before, limit));

export const pruneWebhookReceipts = (db: Queryable, before: Date) =>
  inBatches((limit) => pruneReceipts(db, before, limit));

/** Done outbox rows (packages/outbox owns the table and the rule for keyed rows). */
export const pruneDoneOutbox = (db: Queryable, before: Date, keyedBefore: Date) =>
  inBatches((limit) => pruneDoneRows(db, before, keyedBefore, limit));
export const pruneRateLimitBuckets = (db: Queryable, now: Date) => pruneIdleBuckets(db, now);

/** Outbound webhooks' delivery log (packages/webhooks owns it: settled deliveries only). */
export const pruneWebhookDeliveries = (db: Queryable, before: Date) =>
  inBatches((limit) => pruneSettledDeliveries(db, before, limit));
