/** Age-based deletes of the platform's bookkeeping tables, in bounded batches (short locks). */
import type { Queryable } from '@platform/db';
import { pruneIdleBuckets } from '@platform/http-kit';

const BATCH = 5_000;

async function inBatches(db: Queryable, sql: string, params: unknown[]): Promise<number> {
  let total = 0;
  for (;;) {
    const n = (await db.query(sql, [...params, BATCH])).rowCount;
    total += n;
    if (n < BATCH) return total;
  }
}

export const pruneIdempotencyKeys = (db: Queryable, before: Date) =>
  inBatches(db, 'DELETE FROM idempotency_keys WHERE ctid IN (SELECT ctid FROM idempotency_keys WHERE created_at < $1 LIMIT $2)', [before]);

export const pruneWebhookReceipts = (db: Queryable, before: Date) =>
  inBatches(db, 'DELETE FROM webhook_receipts WHERE ctid IN (SELECT ctid FROM webhook_receipts WHERE received_at < $1 LIMIT $2)', [before]);

/**
 * Done outbox rows. A row with a dedupe key is what stops its event being queued twice, so it is
 * kept as long as the webhook receipts (`keyedBefore`); other done rows go after `before`.
 */
export const pruneDoneOutbox = (db: Queryable, before: Date, keyedBefore: Date) =>
  inBatches(
    db,
    `DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE status = 'done'
       AND done_at < CASE WHEN dedupe_key IS NULL THEN $1::timestamptz ELSE $2::timestamptz END LIMIT $3)`,
    [before, keyedBefore],
  );

export const pruneRateLimitBuckets = (db: Queryable, now: Date) => pruneIdleBuckets(db, now);
