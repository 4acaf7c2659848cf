/** Test support: the pending outbox rows of a topic run once through their handler, as the relay would, then marked done. */
import type { Queryable } from '@platform/db';
import type { OutboxHandler, OutboxRow } from '@platform/outbox';

export async function runPendingJobs(
  db: Queryable,
  handlers: Record<string, OutboxHandler>,
  topic: string,
  /** Newest first (out-of-order deliveries). */
  reverse = false,
): Promise<unknown[]> {
  const rows = (
    await db.query<OutboxRow>(
      `SELECT * FROM outbox WHERE topic = $1 AND status = 'pending' ORDER BY id ${reverse ? 'DESC' : 'ASC'}`,
      [topic],
    )
  ).rows;
  const out: unknown[] = [];
  for (const row of rows) {
    out.push(await handlers[topic]!(row));
    await db.query(`UPDATE outbox SET status = 'done' WHERE id = $1`, [row.id]);
  }
  return out;
}
