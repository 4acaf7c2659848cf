/** Fixed-window counters in the platform database, so every replica shares one limit. */
import type { Queryable } from '@platform/db';

export async function hit(db: Queryable, bucket: string, windowStart: Date): Promise<number> {
  const r = await db.query<{ hits: number }>(
    `INSERT INTO rate_limit_windows (bucket, window_start, hits) VALUES ($1, $2, 1)
     ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_windows.hits + 1 RETURNING hits`,
    [bucket, windowStart],
  );
  return r.rows[0]!.hits;
}

export async function pruneBefore(db: Queryable, before: Date): Promise<void> {
  await db.query('DELETE FROM rate_limit_windows WHERE window_start < $1', [before]);
}
