/**
 * A recovered ERP wakes its deliveries: rows that failed while the ERP was unreachable sleep in a
 * long backoff (here up to 10 minutes), yet go within seconds of the ERP answering again.
 */
import { TOPIC_ESTIMATE } from '@platform/contracts';
import type { Db, TestDb } from '@platform/db';
import { startTestErp, type TestErp, waitFor } from '@platform/erp-embedded/testing';
import { enqueue, type OutboxRow } from '@platform/outbox';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { createPlatformDb, estimatePayload, insertSubmission } from '../../../test/support/payloads.js';
import { loadWorkerConfig } from '../../config.js';
import { type RunningWorker, startWorker } from '../../worker.js';

let platform: { t: TestDb; db: Db; tenantId: string };
let erp: TestErp;
let worker: RunningWorker | undefined;

beforeAll(async () => {
  platform = await createPlatformDb();
  erp = await startTestErp({ db: platform.db, listen: false });
}, 180_000);
afterEach(async () => {
  await worker?.close();
  worker = undefined;
});
afterAll(async () => {
  await erp?.close();
  await platform?.t.drop();
});

const rows = async () =>
  (await platform.db.query<OutboxRow>('SELECT * FROM outbox WHERE topic = $1 ORDER BY id', [TOPIC_ESTIMATE])).rows;

async function queueEstimates(n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const p = estimatePayload();
    await insertSubmission(platform.db, platform.tenantId, p);
    await platform.db.transaction((tx) =>
      enqueue(tx, { tenantId: platform.tenantId, topic: TOPIC_ESTIMATE, aggregateId: p.submissionId, payload: p }),
    );
  }
}

async function startWithLongBackoff(probeMs: string): Promise<RunningWorker> {
  const config = loadWorkerConfig({
    ERP_URL: erp.url,
    ERP_API_KEY: erp.apiKey,
    ERP_DB: erp.dbName,
    LOG_LEVEL: 'silent',
    OUTBOX_POLL_MS: '50',
    // Full jitter over up to 10 minutes: without a wake-up the rows would sleep far past this test.
    OUTBOX_BASE_DELAY_MS: '600000',
    OUTBOX_MAX_DELAY_MS: '600000',
    ERP_RECOVERY_PROBE_MS: probeMs,
    CHANGE_FEED_POLL_MS: '0',
    PRUNE_INTERVAL_MS: '0',
    WORKER_METRICS_PORT: '0',
  });
  worker = await startWorker(config, { db: platform.db });
  return worker;
}

const allWaitingOnTheErp = async () => {
  const r = await rows();
  return r.length > 0 && r.every((x) => x.status === 'pending' && x.last_error?.startsWith('ERP_UNAVAILABLE'));
};

describe('deliveries waiting for an unreachable ERP', { timeout: 60_000 }, () => {
  it('keep sleeping while the ERP is down, and all go within seconds once it answers', async () => {
    await platform.db.query('DELETE FROM outbox');
    await queueEstimates(5);
    await startWithLongBackoff('100');
    await waitFor(allWaitingOnTheErp, 'every row failed once on the unreachable ERP');
    // Probes keep failing: nothing is woken, nobody hammers the ERP's database with creates.
    await new Promise((r) => setTimeout(r, 400));
    expect((await rows()).every((x) => x.attempts === 1)).toBe(true);

    await erp.listen();
    await waitFor(async () => (await rows()).every((x) => x.status === 'done'), 'the backlog delivered', 15_000);
    expect(await erp.erp.searchCount('crm.lead', [])).toBeGreaterThanOrEqual(5);
    await erp.stop();
  });

  it('stay asleep in their backoff when recovery probing is off', async () => {
    await platform.db.query('DELETE FROM outbox');
    await queueEstimates(2);
    await startWithLongBackoff('0');
    await waitFor(allWaitingOnTheErp, 'every row failed once on the unreachable ERP');
    await erp.listen();
    await new Promise((r) => setTimeout(r, 1_500));
    // The control case: it is the probe, not the ordinary poll, that brings them back early.
    expect((await rows()).filter((x) => x.status === 'done').length).toBeLessThan(2);
    await erp.stop();
  });
});
