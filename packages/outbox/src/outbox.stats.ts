/**
 * The outbox's backlog for monitoring: rows not yet done, by topic and status, and how long the
 * oldest has waited. Read at scrape time; the partial index of migration 0160 (rows not done) keeps
 * it to the backlog however many done rows retention still holds.
 */
import type { Queryable } from '@platform/db';

export interface OutboxBacklogRow {
  topic: string;
  status: 'pending' | 'processing' | 'dead';
  count: number;
  /** Seconds since the oldest of these rows was enqueued (as the database's clock sees it). */
  oldest_age_s: number;
}

export async function outboxBacklog(db: Queryable): Promise<OutboxBacklogRow[]> {
  const r = await db.query<OutboxBacklogRow>(
    `SELECT topic, status, count(*)::int AS count,
            extract(epoch FROM now() - min(created_at))::float8 AS oldest_age_s
       FROM outbox WHERE status <> 'done' GROUP BY topic, status ORDER BY topic, status`,
  );
  return r.rows.map((x) => ({ ...x, count: Number(x.count), oldest_age_s: Math.max(0, Number(x.oldest_age_s)) }));
}
