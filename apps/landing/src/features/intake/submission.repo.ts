/** Accepted submissions (tables owned by @platform/intake) with their outbox rows, and stored idempotent answers. */
import type { Db, Queryable } from '@platform/db';
import { insertSubmissionRow, type NewSubmission } from '@platform/intake';
import { enqueue, type NewOutboxMessage } from '@platform/outbox';

export {
  findAnswer,
  findRecentSubmission,
  lockFingerprint,
  storeAnswer,
  type NewSubmission,
  type StoredAnswer,
} from '@platform/intake';

export async function insertSubmission(tx: Queryable, s: NewSubmission, outbox: NewOutboxMessage): Promise<void> {
  await insertSubmissionRow(tx, s);
  await enqueue(tx, outbox);
}

export type { Db };
