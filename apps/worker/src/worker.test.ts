/**
 * The worker end to end: a submission committed to the platform's outbox reaches a real embedded ERP
 * over HTTP, through retries while the ERP is down, to the dead letters when it never comes back.
 */
import { type EstimatePayload, TOPIC_ESTIMATE } from '@platform/contracts';
import type { Db, TestDb } from '@platform/db';
import { gatedProxy, serveAgain, startTestErp, type TestErp, waitFor } from '@platform/erp-embedded/testing';
import { claimBatch, enqueue, type OutboxRow } from '@platform/outbox';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { createPlatformDb, estimatePayload, insertSubmission } from '../test/support/payloads.js';
import { loadWorkerConfig } from './config.js';
import { referenceMarker } from './features/leads/lead-mapping.js';
import { type RunningWorker, startWorker } from './worker.js';

let platform: { t: TestDb; db: Db; tenantId: string };
let db: Db;
let erp: TestErp;
const workers: RunningWorker[] = [];
const stopped: TestErp[] = [];

beforeAll(async () => {
  platform = await createPlatformDb();
  db = platform.db;
  erp = await startTestErp({ db });
}, 180_000); // booting PGlite and creating the ERP schema is slow on a loaded machine
afterAll(async () => {
  await erp?.close();
  await platform?.t.drop();
});
beforeEach(async () => void (await db.query('DELETE FROM outbox')));
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.close()));
  await Promise.all(stopped.splice(0).map((e) => e.stop()));
});

const start = async (url: string, env: Record<string, string> = {}) => {
  const config = loadWorkerConfig({
    ERP_URL: url,
    ERP_API_KEY: erp.apiKey,
    ERP_DB: erp.dbName,
    LOG_LEVEL: 'silent',
    OUTBOX_POLL_MS: '50',
    OUTBOX_BASE_DELAY_MS: '50',
    ...env,
  });
  const w = await startWorker(config, { db });
  workers.push(w);
  return w;
};
/** What intake commits: the submission and its outbox row. */
const submit = async (p: EstimatePayload = estimatePayload()) => {
  await insertSubmission(db, platform.tenantId, p);
  const id = await db.transaction((tx) =>
    enqueue(tx, { tenantId: platform.tenantId, topic: TOPIC_ESTIMATE, aggregateId: p.submissionId, payload: { ...p } }),
  );
  return { p, id: id! };
};
const row = async (id: number) =>
  (await db.query<OutboxRow & { locked_at: Date | null }>('SELECT * FROM outbox WHERE id = $1', [id])).rows[0]!;
const leadIds = (p: EstimatePayload) =>
  erp.erp.search('crm.lead', [['description', 'ilike', referenceMarker(p.submissionId)]], {
    context: { active_test: false },
  });
const submission = async (p: EstimatePayload) =>
  (
    await db.query<{ erp_model: string | null; erp_id: number | null; delivered_at: Date | null }>(
      'SELECT erp_model, erp_id, delivered_at FROM submissions WHERE id = $1',
      [p.submissionId],
    )
  ).rows[0]!;
/** An ERP on its own port that is down until listen() (same database and API key as `erp`). */
const downErp = async () => {
  const e = await serveAgain(erp, { listen: false });
  stopped.push(e);
  return e;
};

describe('worker', { timeout: 60_000 }, () => {
  it('delivers a committed estimate to the ERP once and records where it went', async () => {
    await start(erp.url);
    const { p, id } = await submit();
    const done = await waitFor(
      async () => ((await row(id)).status === 'done' ? row(id) : undefined),
      'the row to be done',
    );
    const ids = await leadIds(p);
    expect(ids).toHaveLength(1);
    expect(done).toMatchObject({
      attempts: 1,
      last_error: null,
      locked_by: null,
      result: { model: 'crm.lead', id: ids[0], duplicate: false },
    });
    expect(await submission(p)).toMatchObject({
      erp_model: 'crm.lead',
      erp_id: ids[0],
      delivered_at: expect.any(Date),
    });
  });

  it('while the ERP is down the row waits with the error; once the ERP is up it is delivered exactly once', async () => {
    const later = await downErp();
    await start(later.url);
    const { p, id } = await submit();
    const failed = await waitFor(async () => {
      const r = await row(id);
      return r.status === 'pending' && r.attempts >= 1 ? r : undefined;
    }, 'a failed attempt');
    expect(failed.last_error).toMatch(/^ERP_UNAVAILABLE: ERP unreachable/);
    expect(failed.locked_by).toBeNull();
    await later.listen();
    const done = await waitFor(
      async () => ((await row(id)).status === 'done' ? row(id) : undefined),
      'the row to be done',
    );
    expect(done.attempts).toBeGreaterThanOrEqual(2);
    expect(done.last_error).toBeNull();
    expect(await leadIds(p)).toHaveLength(1);
    expect((await submission(p)).erp_id).toBe((await leadIds(p))[0]);
  });

  it('after OUTBOX_MAX_ATTEMPTS failures the row is dead with the reason, and nothing reached the ERP', async () => {
    const never = await downErp();
    await start(never.url, { OUTBOX_MAX_ATTEMPTS: '3' });
    const { p, id } = await submit();
    const dead = await waitFor(
      async () => ((await row(id)).status === 'dead' ? row(id) : undefined),
      'the row to be dead',
    );
    expect(dead).toMatchObject({ attempts: 3, locked_by: null });
    expect(dead.last_error).toMatch(/^ERP_UNAVAILABLE: /);
    await new Promise((r) => setTimeout(r, 200));
    expect(await row(id)).toMatchObject({ status: 'dead', attempts: 3 }); // not claimed again
    expect(await submission(p)).toMatchObject({ erp_id: null, delivered_at: null });
  });

  it('close() finishes the delivery in hand, gives back claimed rows uncounted, and stops claiming', async () => {
    const slow = await gatedProxy(erp.url);
    try {
      const w = await start(slow.url);
      const a = await submit();
      const inHand = await waitFor(
        async () => ((await row(a.id)).status === 'processing' ? row(a.id) : undefined),
        'the row to be claimed',
      );
      // A row this worker had claimed but not started yet (as in a batch cut short by shutdown).
      const b = await submit();
      expect(await claimBatch(db, inHand.locked_by!, 1, [TOPIC_ESTIMATE])).toMatchObject([{ id: b.id }]);
      const closing = w.close();
      slow.open();
      await closing;
      expect(await row(a.id)).toMatchObject({ status: 'done', attempts: 1, locked_by: null });
      expect(await row(b.id)).toMatchObject({ status: 'pending', attempts: 0, locked_by: null, locked_at: null });
      expect(await leadIds(a.p)).toHaveLength(1);
      const c = await submit();
      w.wake();
      await new Promise((r) => setTimeout(r, 200));
      expect(await row(c.id)).toMatchObject({ status: 'pending', attempts: 0 });
      expect(await leadIds(b.p)).toHaveLength(0);
    } finally {
      await slow.close();
    }
  });
});
