/**
 * Lost replies: the worker talks to a real embedded ERP through a proxy that lets the ERP commit a
 * write and then drops its reply. Whatever the worker does next (retry, dead letter then
 * `npm run outbox -- replay`), each submission ends as exactly one ERP record.
 */
import { type EstimatePayload, type HelpdeskPayload, TOPIC_ESTIMATE, TOPIC_HELPDESK } from '@platform/contracts';
import type { Db, TestDb } from '@platform/db';
import { startTestErp, type TestErp, waitFor } from '@platform/erp-embedded/testing';
import { odooCall, type ReplyDroppingProxy, startReplyDroppingProxy } from '@platform/erp-embedded/testing';
import { enqueue, type OutboxRow, replayDead } from '@platform/outbox';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { createPlatformDb, estimatePayload, helpdeskPayload, insertSubmission } from '../test/support/payloads.js';
import { loadWorkerConfig } from './config.js';
import { referenceMarker } from './features/leads/lead-mapping.js';
import { type RunningWorker, startWorker } from './worker.js';

let platform: { t: TestDb; db: Db; tenantId: string };
let db: Db;
let erp: TestErp;
let proxy: ReplyDroppingProxy;
let worker: RunningWorker | undefined;

beforeAll(async () => {
  platform = await createPlatformDb();
  db = platform.db;
  erp = await startTestErp({ db });
  proxy = await startReplyDroppingProxy(erp.url);
}, 180_000);
afterAll(async () => {
  await proxy?.close();
  await erp?.close();
  await platform?.t.drop();
});
beforeEach(async () => void (await db.query('DELETE FROM outbox')));
afterEach(async () => {
  await worker?.close();
  worker = undefined;
});

const start = async (env: Record<string, string> = {}) => {
  const config = loadWorkerConfig({
    ERP_URL: proxy.url,
    ERP_API_KEY: erp.apiKey,
    ERP_DB: erp.dbName,
    LOG_LEVEL: 'silent',
    OUTBOX_POLL_MS: '50',
    OUTBOX_BASE_DELAY_MS: '50',
    ...env,
  });
  worker = await startWorker(config, { db });
  return worker;
};
const queue = async (topic: typeof TOPIC_ESTIMATE | typeof TOPIC_HELPDESK, p: EstimatePayload | HelpdeskPayload) =>
  (await db.transaction((tx) =>
    enqueue(tx, { tenantId: platform.tenantId, topic, aggregateId: p.submissionId, payload: { ...p } }),
  ))!;
const row = async (id: number) => (await db.query<OutboxRow>('SELECT * FROM outbox WHERE id = $1', [id])).rows[0]!;
const settled = (id: number, status: OutboxRow['status']) =>
  waitFor(async () => (await row(id)).status === status, `outbox row ${id} ${status}`);
const leadsOf = (p: EstimatePayload) =>
  erp.erp.search('crm.lead', [['description', 'ilike', referenceMarker(p.submissionId)]], {
    context: { active_test: false },
  });

describe('a write the ERP committed while its reply was lost', { timeout: 60_000 }, () => {
  it('replaying the dead letter (attempts back to 0) still leaves one lead', async () => {
    const p = estimatePayload();
    await insertSubmission(db, platform.tenantId, p);
    proxy.dropNext(odooCall('crm.lead', 'create'));
    const id = await queue(TOPIC_ESTIMATE, p);
    await start({ OUTBOX_MAX_ATTEMPTS: '1' });
    await settled(id, 'dead');
    expect(proxy.dropped.at(-1)).toMatchObject({ upstreamStatus: 200 });
    expect(await leadsOf(p)).toHaveLength(1); // the ERP did create it

    expect(await replayDead(db, [id])).toBe(1);
    expect((await row(id)).attempts).toBe(0);
    worker!.wake();
    await settled(id, 'done');
    const leads = await leadsOf(p);
    expect(leads).toHaveLength(1);
    expect((await row(id)) as unknown as { result: unknown }).toMatchObject({
      result: { model: 'crm.lead', id: leads[0], duplicate: true },
    });
  });

  it('a retried estimate whose external-id link reply was lost leaves one lead and one link', async () => {
    const p = estimatePayload();
    await insertSubmission(db, platform.tenantId, p);
    proxy.dropNext(odooCall('ir.model.data', 'create'));
    const id = await queue(TOPIC_ESTIMATE, p);
    await start();
    await settled(id, 'done');
    expect(await leadsOf(p)).toHaveLength(1);
    expect(
      await erp.erp.searchCount('ir.model.data', [
        ['model', '=', 'crm.lead'],
        ['res_id', '=', (await leadsOf(p))[0]!],
      ]),
    ).toBe(1);
  });

  it('a retried helpdesk request leaves one ticket', async () => {
    const p = helpdeskPayload();
    proxy.dropNext(odooCall('helpdesk.ticket', 'create'));
    const id = await queue(TOPIC_HELPDESK, p);
    await start();
    await settled(id, 'done');
    expect((await row(id)).attempts).toBe(2);
    expect(
      await erp.erp.searchCount('helpdesk.ticket', [['description', 'ilike', referenceMarker(p.submissionId)]]),
    ).toBe(1);
  });
});
