/** Retention of `webhook_receipts` (written by the SMS and accounting webhook repos of this package). */
import type { Queryable } from '@platform/db';

/** Deletes up to `limit` receipts received before `before` (short locks); returns how many went. */
export async function pruneWebhookReceipts(db: Queryable, before: Date, limit: number): Promise<number> {
  return (
    await db.query(
      'DELETE FROM webhook_receipts WHERE ctid IN (SELECT ctid FROM webhook_receipts WHERE received_at < $1 LIMIT $2)',
      [before, limit],
    )
  ).rowCount;
}
