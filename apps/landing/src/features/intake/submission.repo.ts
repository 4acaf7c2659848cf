/** An accepted submission (table owned by @platform/intake) with its outbox row, in the caller's transaction. */
import type { Queryable } from '@platform/db';
import { insertSubmissionRow, type NewSubmission } from '@platform/intake';
import { enqueue, type NewOutboxMessage } from '@platform/outbox';

export async function insertSubmission(tx: Queryable, s: NewSubmission, outbox: NewOutboxMessage): Promise<void> {
  await insertSubmissionRow(tx, s);
  await enqueue(tx, outbox);
}
