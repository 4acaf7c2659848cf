/** SQL of sign-in throttling: failure counters and locks per key, shared by every replica. */
import type { Queryable } from '@platform/db';

export interface ThrottleRule {
  /** Failures allowed before the first lock. */
  allowed: number;
  baseLockS: number;
  maxLockS: number;
  /** A counter starts again after this long without a failure. */
  quietS: number;
}

/**
 * Counts one attempt against `key` unless it is locked, in one statement (INSERT … ON CONFLICT locks
 * the row, so concurrent attempts from several replicas are each counted). From the `allowed`-th
 * attempt on, the key is locked for base × 2^(n − allowed) seconds, at most maxLockS. Returns false
 * when the key was locked (nothing counted).
 */
export async function countAttempt(q: Queryable, key: string, now: Date, r: ThrottleRule): Promise<boolean> {
  const next = `CASE WHEN t.last_failure_at < $2::timestamptz - make_interval(secs => $6) THEN 1 ELSE t.failures + 1 END`;
  const lock = (n: string) =>
    `CASE WHEN ${n} >= $3 THEN $2::timestamptz + make_interval(secs => least($4 * power(2, ${n} - $3), $5)) END`;
  const res = await q.query(
    `INSERT INTO login_throttles AS t (key, failures, last_failure_at, locked_until)
     VALUES ($1, 1, $2, ${lock('1')})
     ON CONFLICT (key) DO UPDATE SET failures = ${next}, last_failure_at = $2, locked_until = ${lock(next)}
       WHERE t.locked_until IS NULL OR t.locked_until <= $2::timestamptz
     RETURNING failures`,
    [key, now, r.allowed, r.baseLockS, r.maxLockS, r.quietS],
  );
  return res.rowCount > 0;
}

export async function lockedUntil(q: Queryable, key: string): Promise<Date | undefined> {
  const r = await q.query<{ locked_until: Date | null }>('SELECT locked_until FROM login_throttles WHERE key = $1', [
    key,
  ]);
  const v = r.rows[0]?.locked_until;
  return v ? new Date(v) : undefined;
}

/** A successful sign-in: the account starts afresh. */
export async function clearKey(q: Queryable, key: string): Promise<void> {
  await q.query('DELETE FROM login_throttles WHERE key = $1', [key]);
}

/** A successful sign-in from an address takes back the attempt it counted (never below zero). */
export async function uncountAttempt(q: Queryable, key: string, allowed: number): Promise<void> {
  await q.query(
    `UPDATE login_throttles SET failures = greatest(failures - 1, 0),
            locked_until = CASE WHEN failures - 1 < $2 THEN NULL ELSE locked_until END
      WHERE key = $1`,
    [key, allowed],
  );
}

/** Counters quiet for a day are of no use any more. */
export async function pruneThrottles(q: Queryable, now: Date): Promise<void> {
  await q.query(`DELETE FROM login_throttles WHERE last_failure_at < $1::timestamptz - interval '1 day'`, [now]);
}
