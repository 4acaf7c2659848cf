/**
 * The relay's batch features on the test database engine: batch handlers, the claim hook
 * (`claimWith`), prefetching the next batch, the timed stale sweep and the claim's order.
 */
import { createTestDb, migratePlatform, type TestDb } from '@platform/db';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';

import { OutboxRelay, type RelayOptions } from './outbox.relay.js';
import { claimBatch, enqueue, type OutboxRow } from './outbox.repo.js';

let t: TestDb;
let tenantId: string;
const silent = { info() {}, warn() {}, error() {} };

beforeAll(async () => {
  t = await createTestDb();
  await migratePlatform(t.db);
  tenantId = (
    await t.db.query<{ id: string }>(
      `INSERT INTO tenants (slug, name, is_default) VALUES ('b', 'B', true) RETURNING id`,
    )
  ).rows[0]!.id;
});
afterAll(async () => t?.drop());
beforeEach(async () => void (await t.db.query('DELETE FROM outbox')));

// Topics of the tests' own, outside the platform's topic map.
const add = async (n: number, topic = 'work') => {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push((await enqueue(t.db, { tenantId, topic, payload: { i } } as never))!);
  return ids;
};
const statusOf = async (ids: number[]) =>
  (
    await t.db.query<{ id: number; status: string; locked_by: string | null }>(
      'SELECT id, status, locked_by FROM outbox WHERE id = ANY($1::bigint[]) ORDER BY id',
      [ids],
    )
  ).rows.map((r) => `${r.status}:${r.locked_by ?? '-'}`);
type Batch = (rows: OutboxRow[]) => Promise<PromiseSettledResult<unknown>[]>;
const relay = (batch: Batch, opts: Partial<RelayOptions> = {}) =>
  new OutboxRelay({
    db: t.db,
    workerId: 'w',
    handlers: {},
    batchHandlers: { work: batch } as never,
    logger: silent,
    random: () => 0.5,
    ...opts,
  });
const i = (r: OutboxRow) => (r.payload as unknown as { i: number }).i;

it("gives a batch handler its topic's rows in one call; a rejected outcome is retried, the others are done", async () => {
  const ids = await add(3);
  const calls: number[][] = [];
  const handled = await relay(async (rows) => {
    calls.push(rows.map(i));
    return rows.map((r) =>
      i(r) === 1 ? { status: 'rejected', reason: new Error('down') } : { status: 'fulfilled', value: i(r) },
    );
  }).tick();
  expect(handled).toBe(3);
  expect(calls).toEqual([[0, 1, 2]]);
  expect(await statusOf(ids)).toEqual(['done:-', 'pending:-', 'done:-']);
});

it("a batch handler's throw, or a missing outcome, reschedules its rows instead of failing the poll", async () => {
  const ids = await add(2);
  expect(await relay(async () => [{ status: 'fulfilled', value: 'only one' }]).tick()).toBe(2);
  expect(await statusOf(ids)).toEqual(['done:-', 'pending:-']);
  await t.db.query(`UPDATE outbox SET next_attempt_at = now() WHERE status = 'pending'`);
  expect(await relay(async () => Promise.reject(new Error('boom'))).tick()).toBe(1);
  expect(await statusOf(ids)).toEqual(['done:-', 'pending:-']);
});

it('claimWith: each claimed row carries what the SQL read with it in the claim', async () => {
  await add(2);
  const seen: unknown[] = [];
  await relay(async (rows) => rows.map((r) => (seen.push(r.claimed_with), { status: 'fulfilled', value: null })), {
    claimWith: `jsonb_build_object('twice', (c.payload->>'i')::int * 2, 'topic', c.topic)`,
  }).tick();
  expect(seen).toEqual([
    { twice: 0, topic: 'work' },
    { twice: 2, topic: 'work' },
  ]);
});

it('prefetch: claims the next batch while a full one is delivered; stop() gives it back', async () => {
  const ids = await add(5);
  let during: string[] = [];
  const r = relay(
    async (rows) => {
      await new Promise((res) => setTimeout(res, 20)); // the prefetch claim runs meanwhile
      if (!during.length) during = await statusOf(ids);
      return rows.map(() => ({ status: 'fulfilled', value: null }));
    },
    { batchSize: 2, prefetch: true },
  );
  expect(await r.tick()).toBe(2);
  expect(during).toEqual(['processing:w', 'processing:w', 'processing:w', 'processing:w', 'pending:-']);
  expect(await statusOf(ids)).toEqual(['done:-', 'done:-', 'processing:w', 'processing:w', 'pending:-']);
  await r.stop();
  expect(await statusOf(ids)).toEqual(['done:-', 'done:-', 'pending:-', 'pending:-', 'pending:-']);
  const again = relay(async (rows) => rows.map(() => ({ status: 'fulfilled', value: null })), { batchSize: 2 });
  while ((await again.tick()) > 0);
  expect(await statusOf(ids)).toEqual(Array(5).fill('done:-'));
});

it('sweeps stale claims at most every sweepEveryMs, not on every poll', async () => {
  const [id] = await add(1);
  const r = relay(async (rows) => rows.map(() => ({ status: 'fulfilled', value: null })), {
    visibilityTimeoutMs: 1_000,
    sweepEveryMs: 60_000,
  });
  expect(await r.tick()).toBe(1); // the first poll sweeps (nothing stale) and delivers
  const [stale] = await add(1);
  await claimBatch(t.db, 'died', 1, ['work']);
  await t.db.query(`UPDATE outbox SET locked_at = now() - interval '1 minute' WHERE id = $1`, [stale]);
  expect(await r.tick()).toBe(0); // the last sweep is recent: the stale claim waits for the next one
  const soon = relay(async (rows) => rows.map(() => ({ status: 'fulfilled', value: null })), {
    visibilityTimeoutMs: 1_000,
    sweepEveryMs: 0,
  });
  expect(await soon.tick()).toBe(1);
  expect(await statusOf([id!, stale!])).toEqual(['done:-', 'done:-']);
});

it("claims the oldest due rows across the relay's topics, skipping rows not yet due", async () => {
  const a = await add(2, 'a');
  const b = await add(2, 'b');
  await t.db.query(`UPDATE outbox SET next_attempt_at = now() - interval '1 minute' WHERE id = $1`, [b[1]]);
  await t.db.query(`UPDATE outbox SET next_attempt_at = now() + interval '1 minute' WHERE id = $1`, [a[0]]);
  const got = await claimBatch(t.db, 'w', 2, ['a', 'b']);
  expect(got.map((r) => r.id)).toEqual([a[1], b[1]].sort((x, y) => x! - y!));
});
