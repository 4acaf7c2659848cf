/**
 * The outbox on the test database engine (PGlite, or a scratch PostgreSQL with TEST_DATABASE_URL):
 * claims, retries with backoff, dead letters, replay, release on stop and reclaim of a dead worker.
 */
import { createPgDb, createTestDb, type Db, migratePlatform, type TestDb } from '@platform/db';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { backoffDelay, PermanentFailure } from './outbox.failures.js';
import { type OutboxHandler, OutboxRelay, type RelayOptions } from './outbox.relay.js';
import { claimBatch, enqueue, type OutboxRow, reclaimStale, releaseClaims, replayDead } from './outbox.repo.js';

let t: TestDb;
let tenantId: string;
const silent = { info() {}, warn() {}, error() {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  t = await createTestDb(process.env, { migrated: true });
  await migratePlatform(t.db);
  const r = await t.db.query<{ id: string }>(
    `INSERT INTO tenants (slug, name, is_default) VALUES ('acme', 'Acme', true) RETURNING id`,
  );
  tenantId = r.rows[0]!.id;
});
afterAll(async () => t?.drop());
beforeEach(async () => void (await t.db.query('DELETE FROM outbox')));

// The relay is topic-agnostic; these tests use topics of their own, outside the platform's topic map.
const add = (n: number, topic = 'work') =>
  t.db.transaction(async (tx) => {
    const ids: number[] = [];
    for (let i = 0; i < n; i++) ids.push((await enqueue(tx, { tenantId, topic, payload: { i } } as never))!);
    return ids;
  });
const row = async (id: number) =>
  (await t.db.query<OutboxRow & { locked_at: Date | null }>('SELECT * FROM outbox WHERE id = $1', [id])).rows[0]!;
/** Makes every pending row due now, as if its backoff had elapsed. */
const elapse = () => t.db.query(`UPDATE outbox SET next_attempt_at = now() WHERE status = 'pending'`);
const relay = (handler: OutboxHandler, opts: Partial<RelayOptions> = {}) =>
  new OutboxRelay({
    db: t.db,
    workerId: 'w1',
    handlers: { work: handler } as never,
    logger: silent,
    random: () => 0.5,
    ...opts,
  });

describe('a batch', () => {
  it("marks its delivered rows done together, each with its handler's result, and reschedules the failed one", async () => {
    const ids = await add(3);
    const handled = await relay(async (r) => {
      const i = (r.payload as unknown as { i: number }).i;
      if (i === 1) throw new Error('receiver down');
      return { sent: i, quote: `it's "${i}"` };
    }).tick();
    expect(handled).toBe(3);
    const rows = await Promise.all(ids.map(row));
    expect(rows.map((r) => [r.status, (r as unknown as { result: unknown }).result, r.locked_by])).toEqual([
      ['done', { sent: 0, quote: `it's "0"` }, null],
      ['pending', null, null],
      ['done', { sent: 2, quote: `it's "2"` }, null],
    ]);
  });

  it('stores no result for a handler that returns nothing', async () => {
    const [id] = await add(1);
    await relay(async () => undefined).tick();
    expect(await row(id!)).toMatchObject({ status: 'done', result: null });
  });
});

describe('claims', () => {
  it('never gives one row to two workers claiming at the same time', async () => {
    const ids = await add(40);
    const batches = await Promise.all(Array.from({ length: 8 }, (_, i) => claimBatch(t.db, `w${i}`, 6, ['work'])));
    const rest = await claimBatch(t.db, 'late', 40, ['work']);
    const claimed = [...batches.flat(), ...rest].map((r) => r.id);
    expect(claimed.every((id) => typeof id === 'number')).toBe(true); // bigint ids parsed as numbers on both engines
    expect(claimed).toHaveLength(new Set(claimed).size);
    expect(claimed.sort((a, b) => a - b)).toEqual(ids);
    expect(await claimBatch(t.db, 'w0', 10, ['other'])).toEqual([]); // only the topics asked for
  });

  it('skips, and does not wait for, rows another worker holds in an open claim', async (ctx) => {
    if (!t.url) return ctx.skip(); // PGlite has one session: there is no second worker to lock against.
    const ids = await add(10);
    const other = createPgDb({ url: t.url, max: 1 });
    try {
      await t.db.transaction(async (a) => {
        const mine = await claimBatch(a, 'a', 5, ['work']); // row locks held until this transaction ends
        const theirs = await other.transaction(async (b) => {
          await b.query(`SET LOCAL lock_timeout = '2s'`); // blocking on a's rows would fail here
          return claimBatch(b, 'b', 10, ['work']);
        });
        expect(mine.map((r) => r.id)).toEqual(ids.slice(0, 5));
        expect(theirs.map((r) => r.id)).toEqual(ids.slice(5));
      });
    } finally {
      await other.close();
    }
  });

  it('two relays on the same database deliver every row exactly once', async () => {
    const ids = await add(30);
    const seen: number[] = [];
    // On PostgreSQL the second relay has its own pool, as a second worker process would.
    const second: Db = t.url ? createPgDb({ url: t.url, max: 2 }) : t.db;
    const mk = (workerId: string, db: Db) =>
      relay(
        async (r) => {
          seen.push(r.id);
          await sleep(2); // keeps the batch claimed while the other relay polls
        },
        { workerId, db, batchSize: 4 },
      );
    const [a, b] = [mk('a', t.db), mk('b', second)];
    try {
      for (let round = 0; round < 20; round++) {
        const [x, y] = await Promise.all([a.tick(), b.tick()]);
        if (x + y === 0) break;
      }
    } finally {
      if (second !== t.db) await second.close();
    }
    expect(seen.sort((p, q) => p - q)).toEqual(ids);
    const done = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM outbox WHERE status = 'done' AND attempts = 1`,
    );
    expect(done.rows[0]!.n).toBe(30);
  });
});

describe('retries and dead letters', () => {
  it('backoff is full-jitter exponential, capped', () => {
    expect(backoffDelay(1, 1000, 60_000, () => 0.5)).toBe(500);
    expect(backoffDelay(3, 1000, 60_000, () => 0.5)).toBe(2000);
    expect(backoffDelay(20, 1000, 60_000, () => 0.999)).toBe(59_940);
    expect(backoffDelay(2, 1000, 60_000, () => 0)).toBe(0);
  });

  it('retries a failed delivery after its backoff, recording the error', async () => {
    const [id] = await add(1);
    let calls = 0;
    const r = relay(
      async () => {
        if (++calls === 1) throw new Error('ERP timed out');
        return { erp_id: 7 };
      },
      { baseDelayMs: 1_000 },
    );
    expect(await r.tick()).toBe(1);
    const failed = await row(id!);
    expect(failed).toMatchObject({ status: 'pending', attempts: 1, last_error: 'ERP timed out', locked_by: null });
    const wait = await t.db.query<{ ms: number }>(
      'SELECT extract(epoch FROM next_attempt_at - now()) * 1000 AS ms FROM outbox WHERE id = $1',
      [id],
    );
    expect(Number(wait.rows[0]!.ms)).toBeGreaterThan(300); // 0.5 x 1000 ms minus the time spent since
    expect(Number(wait.rows[0]!.ms)).toBeLessThanOrEqual(500);
    expect(await r.tick()).toBe(0); // not due yet
    await elapse();
    expect(await r.tick()).toBe(1);
    expect(await row(id!)).toMatchObject({ status: 'done', attempts: 2, last_error: null, result: { erp_id: 7 } });
  });

  it('dead-letters after maxAttempts with the reason, and replayDead sends it again', async () => {
    const [id] = await add(1);
    let fail = true;
    const r = relay(
      async () => {
        if (fail) throw Object.assign(new Error('ERP is down'), { code: 'ERP_UNAVAILABLE' });
        return 'ok';
      },
      { maxAttempts: 3 },
    );
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(await row(id!)).toMatchObject({ status: 'pending' });
      expect(await r.tick()).toBe(1);
      await elapse();
    }
    expect(await row(id!)).toMatchObject({ status: 'dead', attempts: 3, last_error: 'ERP_UNAVAILABLE: ERP is down' });
    expect(await r.tick()).toBe(0); // dead letters are not claimed
    fail = false;
    expect(await replayDead(t.db, [id!])).toBe(1);
    expect(await r.tick()).toBe(1);
    expect(await row(id!)).toMatchObject({ status: 'done', attempts: 1, result: 'ok' });
  });

  it('a PermanentFailure goes straight to the dead letters; replayDead() without ids replays them all', async () => {
    const ids = await add(2);
    await relay(async () => Promise.reject(new PermanentFailure('bad payload'))).tick();
    for (const id of ids)
      expect(await row(id)).toMatchObject({ status: 'dead', attempts: 1, last_error: 'bad payload' });
    expect(await replayDead(t.db)).toBe(2);
    for (const id of ids) expect(await row(id)).toMatchObject({ status: 'pending', attempts: 0 });
  });
});

describe('workers stopping and dying', () => {
  it('stop() gives the rows this worker claimed back without counting the attempt', async () => {
    const [mine, theirs] = await add(2);
    await claimBatch(t.db, 'w1', 1, ['work']);
    await claimBatch(t.db, 'w2', 1, ['work']);
    expect(await row(mine!)).toMatchObject({ status: 'processing', attempts: 1, locked_by: 'w1' });
    await relay(async () => 'ok').stop();
    expect(await row(mine!)).toMatchObject({ status: 'pending', attempts: 0, locked_by: null, locked_at: null });
    expect(await row(theirs!)).toMatchObject({ status: 'processing', attempts: 1, locked_by: 'w2' });
    expect(await releaseClaims(t.db, 'w2')).toBe(1);
    expect(await releaseClaims(t.db, 'w2')).toBe(0);
  });

  it('reclaimStale returns the rows of a dead worker after the visibility timeout, and they are delivered', async () => {
    const [stale, fresh] = await add(2);
    await claimBatch(t.db, 'killed', 2, ['work']);
    await t.db.query(`UPDATE outbox SET locked_at = now() - interval '10 minutes' WHERE id = $1`, [stale]);
    expect(await reclaimStale(t.db, 60_000)).toBe(1);
    expect(await row(stale!)).toMatchObject({ status: 'pending', attempts: 1, locked_by: null });
    expect(await row(fresh!)).toMatchObject({ status: 'processing', locked_by: 'killed' });
    const delivered: number[] = [];
    expect(await relay(async (r) => void delivered.push(r.id), { visibilityTimeoutMs: 60_000 }).tick()).toBe(1);
    expect(delivered).toEqual([stale]);
    expect(await row(stale!)).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('a live worker keeps its claim fresh, so a delivery slower than the visibility timeout is not reclaimed', async () => {
    const [id] = await add(1);
    let reclaimed = -1;
    const r = relay(
      async () => {
        await sleep(900);
        reclaimed = await reclaimStale(t.db, 300); // another worker's poll, well past the timeout
        return 'slow but fine';
      },
      { visibilityTimeoutMs: 300 },
    );
    expect(await r.tick()).toBe(1);
    expect(reclaimed).toBe(0);
    expect(await row(id!)).toMatchObject({ status: 'done', attempts: 1, result: 'slow but fine' });
  });
});
