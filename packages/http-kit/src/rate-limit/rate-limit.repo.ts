/**
 * Sliding-window counters in the platform database, so every replica shares one limit. One
 * statement records a hit only while fewer than `max` hits fall inside the window ending now:
 * INSERT … ON CONFLICT DO UPDATE locks the bucket's row and re-reads its latest version, so
 * concurrent requests from several processes are counted exactly.
 */
import type { Queryable } from '@platform/db';

/** true when the hit was recorded (under the limit), false when refused. */
export async function tryHit(
  db: Queryable,
  bucket: string,
  now: Date,
  windowSeconds: number,
  max: number,
): Promise<boolean> {
  const r = await db.query(
    `INSERT INTO rate_limit_hits AS r (bucket, window_s, hits, updated_at) VALUES ($1, $3, ARRAY[$2::timestamptz], $2)
     ON CONFLICT (bucket) DO UPDATE
       SET hits = array_append(ARRAY(SELECT h FROM unnest(r.hits) h WHERE h > $2::timestamptz - make_interval(secs => $3) ORDER BY h), $2::timestamptz),
           window_s = $3, updated_at = $2
       WHERE (SELECT count(*) FROM unnest(r.hits) h WHERE h > $2::timestamptz - make_interval(secs => $3)) < $4
     RETURNING 1`,
    [bucket, now, windowSeconds, max],
  );
  return r.rowCount > 0;
}

/** The oldest hit still inside the window (the one whose expiry frees a slot). */
export async function oldestHitInWindow(
  db: Queryable,
  bucket: string,
  now: Date,
  windowSeconds: number,
): Promise<Date | undefined> {
  const r = await db.query<{ oldest: Date | null }>(
    `SELECT min(h) AS oldest FROM rate_limit_hits r, unnest(r.hits) h
     WHERE r.bucket = $1 AND h > $2::timestamptz - make_interval(secs => $3)`,
    [bucket, now, windowSeconds],
  );
  const v = r.rows[0]?.oldest;
  return v ? new Date(v) : undefined;
}

/** Deletes buckets with no hit inside their window (worker pruning). Returns how many. */
export async function pruneIdleBuckets(db: Queryable, now: Date): Promise<number> {
  const r = await db.query(
    'DELETE FROM rate_limit_hits WHERE updated_at < $1::timestamptz - make_interval(secs => window_s)',
    [now],
  );
  return r.rowCount;
}
