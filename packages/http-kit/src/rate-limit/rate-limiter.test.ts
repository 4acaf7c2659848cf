/**
 * "5 requests per 60 s" means any 60 s: a sliding window, exact across processes (on PostgreSQL,
 * two separate pools stand for two processes), on PGlite and PostgreSQL alike.
 */
import { createPgDb, createTestDb, type Db, migratePlatform, type TestDb } from '@platform/db';
import { AppError } from '@platform/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { pruneIdleBuckets } from './rate-limit.repo.js';
import { RateLimiter } from './rate-limiter.js';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb(process.env, { migrated: true });
  await migratePlatform(t.db);
});
afterAll(() => t?.drop());

const limit = { name: 'test', max: 5, windowSeconds: 60 };
const at = (ms: number) => ({ now: () => new Date(Date.UTC(2030, 0, 1, 12, 0, 0) + ms) });
async function outcome(l: RateLimiter, client: string): Promise<'ok' | number> {
  try {
    await l.consume(limit, client);
    return 'ok';
  } catch (e) {
    if (e instanceof AppError && e.code === 'RATE_LIMITED') return e.details!.retry_after as number;
    throw e;
  }
}

describe('the sliding-window rate limit', () => {
  it('refuses a 6th request within any 60 s, across a minute boundary too, and says when to retry', async () => {
    for (let i = 0; i < 5; i++) expect(await outcome(new RateLimiter(t.db, at(59_000 + i * 100)), 'a')).toBe('ok');
    // 1.5 s later a new clock minute has begun: a fixed window would start counting again.
    expect(await outcome(new RateLimiter(t.db, at(60_500)), 'a')).toBe(59); // the first frees at 119.0 s
    expect(await outcome(new RateLimiter(t.db, at(118_900)), 'a')).toBe(1);
    // Once the first request is 60 s old exactly one slot is free again.
    expect(await outcome(new RateLimiter(t.db, at(119_050)), 'a')).toBe('ok');
    expect(await outcome(new RateLimiter(t.db, at(119_060)), 'a')).toEqual(expect.any(Number));
    // Other clients have their own budget.
    expect(await outcome(new RateLimiter(t.db, at(119_070)), 'b')).toBe('ok');
  });

  it('lets exactly 5 of 40 concurrent requests through from two processes', async () => {
    const second: Db = t.url ? createPgDb({ url: t.url }) : t.db;
    try {
      const clock = at(3_600_000);
      const limiters = [new RateLimiter(t.db, clock), new RateLimiter(second, clock)];
      const results = await Promise.all(Array.from({ length: 40 }, (_, i) => outcome(limiters[i % 2]!, 'burst')));
      expect(results.filter((r) => r === 'ok')).toHaveLength(5);
    } finally {
      if (second !== t.db) await second.close();
    }
  });

  it('prunes a bucket once it has been idle for a whole window, not before', async () => {
    await new RateLimiter(t.db, at(7_200_000)).consume(limit, 'idle');
    const bucket = async () => (await t.db.query(`SELECT 1 FROM rate_limit_hits WHERE bucket = 'test:idle'`)).rowCount;
    await pruneIdleBuckets(t.db, at(7_200_000 + 59_000).now());
    expect(await bucket()).toBe(1);
    await pruneIdleBuckets(t.db, at(7_200_000 + 61_000).now());
    expect(await bucket()).toBe(0);
  });
});
