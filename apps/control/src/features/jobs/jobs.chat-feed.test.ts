/**
 * Completing a job is what the team chat hears of: the worker's change feed (apps/worker, watching
 * fsm.order.stage_id in the tenant's ERP database) records one stage change into Completed and one
 * chat notification, even when the completion's ERP reply was lost and the request retried.
 */
import { TOPIC_CHAT_NOTIFY, TOPIC_FSM_STAGE_CHANGED } from '@platform/contracts';
import { odooCall, waitFor } from '@platform/erp-embedded/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';

import { loadWorkerConfig } from '../../../../worker/src/config.js';
import { type RunningWorker, startWorker } from '../../../../worker/src/worker.js';
import { type JobsKit, newJob, startJobsKit } from './jobs.test-support.js';

let kit: JobsKit;
let worker: RunningWorker | undefined;
beforeAll(async () => {
  kit = await startJobsKit();
}, 120_000);
afterAll(async () => {
  await worker?.close();
  await kit?.close();
});

const rows = async (topic: string) =>
  (
    await kit.t.db.query<{ payload: Record<string, any> }>(`SELECT payload FROM outbox WHERE topic = $1 ORDER BY id`, [
      topic,
    ])
  ).rows.map((r) => r.payload);

it('posts one chat notification for a completed job, though its completion was retried', async () => {
  const t = await kit.tenant('chat-a', 'professional');
  const erp = await kit.erpFor(t.id, { proxied: true });
  const tech = await kit.member(t.id, 'technician');
  const job = (
    await kit.app.inject({
      method: 'POST',
      url: '/jobs',
      headers: kit.auth(t.token),
      payload: newJob({ technician_id: tech.principal.userId }),
    })
  ).json();
  worker = await startWorker(
    loadWorkerConfig({
      ERP_URL: erp.url,
      ERP_API_KEY: erp.apiKey,
      ERP_DB: erp.dbName,
      LOG_LEVEL: 'silent',
      CHANGE_FEED_POLL_MS: '100',
      OUTBOX_POLL_MS: '100',
      SECRETS_KEYRING: `k:${Buffer.alloc(32, 7).toString('base64')}`,
    }),
    { db: kit.t.db },
  );
  await waitFor(
    async () =>
      (await kit.t.db.query(`SELECT 1 FROM erp_change_cursors WHERE baseline_done`)).rows.length ? true : undefined,
    'change feed baseline',
    60_000,
  );
  erp.proxy!.dropNext(odooCall('fsm.order', 'action_complete'));
  const complete = () =>
    kit.app.inject({
      method: 'POST',
      url: `/jobs/${job.id}/complete`,
      headers: kit.auth(tech.token, { 'idempotency-key': 'chat-complete' }),
      payload: { resolution: 'Two roller shades fitted' },
    });
  expect((await complete()).statusCode).toBe(503);
  expect((await complete()).statusCode).toBe(200);
  const [order] = await erp.erp.searchRead('fsm.order', [['name', '=', job.name]], { fields: ['id'] });
  const completed = async () =>
    (await rows(TOPIC_FSM_STAGE_CHANGED)).filter((e) => e.recordId === order!.id && e.newLabel === 'Completed');
  await waitFor(async () => ((await completed()).length ? true : undefined), 'stage event', 60_000);
  const notices = async () =>
    (await rows(TOPIC_CHAT_NOTIFY)).filter((n) => n.event?.recordId === order!.id && n.event?.newLabel === 'Completed');
  await waitFor(async () => ((await notices()).length ? true : undefined), 'chat notification job', 60_000);
  await new Promise((r) => setTimeout(r, 1000)); // more passes of the feed: still one
  expect(await completed()).toHaveLength(1);
  expect(await notices()).toHaveLength(1);
}, 180_000);
