/**
 * The worker end to end for outbound webhooks: an estimate committed to the outbox becomes an ERP
 * lead, and then a signed `lead.created` at the tenant's loopback receiver that the Standard Webhooks
 * reference library verifies, carrying the ERP lead's id; delivered twice by the relay, it is one event.
 */
import { randomBytes, randomUUID } from 'node:crypto';

import { TOPIC_ESTIMATE } from '@platform/contracts';
import type { Db, TestDb } from '@platform/db';
import { startTestErp, type TestErp, waitFor } from '@platform/erp-embedded/testing';
import { enqueue } from '@platform/outbox';
import { createSecretBox, parseKeyring } from '@platform/secrets';
import { insertEndpoint, newWebhookSecret, sealWebhookSecret } from '@platform/webhooks';
import { type LoopbackReceiver, startLoopbackReceiver } from '@platform/webhooks/testing';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createPlatformDb, estimatePayload, insertSubmission } from '../../../test/support/payloads.js';
import { loadWorkerConfig } from '../../config.js';
import { type RunningWorker, startWorker } from '../../worker.js';

const KEYRING = `k1:${randomBytes(32).toString('base64')}`;
let platform: { t: TestDb; db: Db; tenantId: string };
let erp: TestErp;
let worker: RunningWorker | undefined;
let hooks: LoopbackReceiver;

beforeAll(async () => {
  platform = await createPlatformDb();
  await platform.db.query(`UPDATE tenants SET plan = 'professional' WHERE id = $1`, [platform.tenantId]);
  erp = await startTestErp({ db: platform.db });
  hooks = await startLoopbackReceiver();
}, 180_000);
afterAll(async () => {
  await worker?.close();
  await hooks?.close();
  await erp?.close();
  await platform?.t.drop();
});

describe('lead.created', { timeout: 60_000 }, () => {
  it('reaches the receiver signed, once, after the lead exists in the ERP', async () => {
    const { db, tenantId } = platform;
    const box = createSecretBox(parseKeyring(KEYRING));
    const id = randomUUID();
    const secret = newWebhookSecret();
    await db.transaction((tx) =>
      insertEndpoint(tx, {
        id,
        tenantId,
        url: hooks.url,
        description: null,
        events: ['lead.created', 'job.completed'],
        secretEnc: sealWebhookSecret(box, tenantId, id, secret),
      }),
    );
    const p = estimatePayload();
    await insertSubmission(db, tenantId, p);
    await db.transaction((tx) =>
      enqueue(tx, { tenantId, topic: TOPIC_ESTIMATE, aggregateId: p.submissionId, payload: p }),
    );
    worker = await startWorker(
      loadWorkerConfig({
        ERP_URL: erp.url,
        ERP_API_KEY: erp.apiKey,
        ERP_DB: erp.dbName,
        LOG_LEVEL: 'silent',
        OUTBOX_POLL_MS: '50',
        SECRETS_KEYRING: KEYRING,
        WEBHOOK_ALLOW_LOOPBACK: 'on',
      }),
      { db },
    );
    await waitFor(async () => hooks.received.length === 1, 'the signed lead.created');
    const got = hooks.received[0]!;
    const event = new Webhook(secret).verify(got.body, got.headers) as {
      type: string;
      data: { lead_id: number; submission_id: string };
    };
    expect(event).toMatchObject({ type: 'lead.created', data: { submission_id: p.submissionId } });
    const leads = await erp.erp.search('crm.lead', [['id', '=', event.data.lead_id]]);
    expect(leads).toEqual([event.data.lead_id]);
    // The estimate delivered again (a redelivered outbox row) finds its lead and queues nothing new.
    await db.transaction((tx) =>
      enqueue(tx, { tenantId, topic: TOPIC_ESTIMATE, aggregateId: p.submissionId, payload: p }),
    );
    await waitFor(async () => {
      const r = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM outbox WHERE topic = $1 AND status = 'done'`,
        [TOPIC_ESTIMATE],
      );
      return r.rows[0]!.n === 2;
    }, 'the estimate delivered again');
    const events = await db.query(`SELECT 1 FROM outbox WHERE topic = 'webhook.event'`);
    expect(events.rows).toHaveLength(1);
    expect(hooks.received).toHaveLength(1);
  });
});
