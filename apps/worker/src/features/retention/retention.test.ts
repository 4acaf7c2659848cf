/**
 * The worker keeps bookkeeping tables bounded: each kind of row goes after its stated retention
 * (docs/retention.md), the rest stays; and a webhook replayed after its receipt was pruned is still
 * refused, because its signed timestamp is by then far outside the 5-minute freshness window.
 */
import { randomBytes, randomUUID } from 'node:crypto';

import { createTestDb, migratePlatform, type TestDb } from '@platform/db';
import { IntegrationSettingsService, smsConfigSchema, SmsService } from '@platform/integrations';
import { justCallSmsAdapters, normalizeSmsPhone } from '@platform/providers';
import { formatJustCallTimestamp, signJustCall } from '@platform/providers/local';
import { createSecretBox, parseKeyring } from '@platform/secrets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { RetentionService } from './retention.service.js';

let t: TestDb;
let tenant: string;
beforeAll(async () => {
  t = await createTestDb(process.env, { migrated: true });
  await migratePlatform(t.db);
  tenant = (
    await t.db.query<{ id: string }>(
      `INSERT INTO tenants (slug, name, is_default) VALUES ('r', 'R', true) RETURNING id`,
    )
  ).rows[0]!.id;
});
afterAll(() => t?.drop());

const retention = { idempotencyKeyHours: 24, webhookReceiptDays: 30, outboxDoneDays: 7, webhookDeliveryDays: 30 };
const ago = (hours: number) => new Date(Date.now() - hours * 3_600_000);
const keys = async (sql: string) => (await t.db.query<{ k: string }>(sql)).rows.map((r) => r.k).sort();

describe('pruning', () => {
  it('removes each kind of row after its retention and keeps the rest', async () => {
    for (const [key, hours] of [
      ['old', 25],
      ['fresh', 23],
    ] as const) {
      await t.db.query(
        `INSERT INTO idempotency_keys (tenant_id, route, key, fingerprint, status_code, response, created_at) VALUES ($1, '/api/estimate', $2, 'f', 201, '{}', $3)`,
        [tenant, key, ago(hours)],
      );
    }
    for (const [id, days] of [
      ['old', 31],
      ['fresh', 29],
    ] as const) {
      await t.db.query(
        `INSERT INTO webhook_receipts (tenant_id, provider, event_id, received_at) VALUES ($1, 'sms', $2, $3)`,
        [tenant, id, ago(days * 24)],
      );
    }
    const outbox = (name: string, status: string, days: number, dedupe: string | null) =>
      t.db.query(
        `INSERT INTO outbox (tenant_id, topic, aggregate_id, dedupe_key, payload, status, done_at, created_at) VALUES ($1, 't', $2, $3, '{}', $4, $5, $5)`,
        [tenant, name, dedupe, status, ago(days * 24)],
      );
    await outbox('done-8d', 'done', 8, null);
    await outbox('done-6d', 'done', 6, null);
    await outbox('keyed-8d', 'done', 8, 'k-8d');
    await outbox('keyed-31d', 'done', 31, 'k-31d');
    await outbox('dead-90d', 'dead', 90, null);
    await outbox('pending-90d', 'pending', 90, null);

    const pruned = await new RetentionService(t.db, retention).prune();
    expect(pruned).toMatchObject({ idempotencyKeys: 1, webhookReceipts: 1, outboxDone: 2 });
    expect(await keys('SELECT key AS k FROM idempotency_keys')).toEqual(['fresh']);
    expect(await keys('SELECT event_id AS k FROM webhook_receipts')).toEqual(['fresh']);
    expect(await keys('SELECT aggregate_id AS k FROM outbox')).toEqual([
      'dead-90d',
      'done-6d',
      'keyed-8d',
      'pending-90d',
    ]);
    // A second pass finds nothing more.
    expect(await new RetentionService(t.db, retention).prune()).toMatchObject({
      idempotencyKeys: 0,
      webhookReceipts: 0,
      outboxDone: 0,
    });
  });

  it('removes outbound webhook deliveries settled before their retention, and never a pending one', async () => {
    const endpoint = randomUUID();
    await t.db.query(
      `INSERT INTO webhook_endpoints (id, tenant_id, url, events, secret_enc) VALUES ($1, $2, 'https://h.example/in', '{lead.created}', 'x')`,
      [endpoint, tenant],
    );
    const delivery = (key: string, status: string, days: number, settled: boolean) =>
      t.db.query(
        `INSERT INTO webhook_deliveries (tenant_id, endpoint_id, event_key, event_type, webhook_id, occurred_at, data, status, settled_at, created_at)
         VALUES ($1, $2, $3, 'lead.created', $3, $4, '{}', $5, $6, $4)`,
        [tenant, endpoint, key, ago(days * 24), status, settled ? ago(days * 24) : null],
      );
    await delivery('delivered-31d', 'delivered', 31, true);
    await delivery('failed-31d', 'failed', 31, true);
    await delivery('delivered-29d', 'delivered', 29, true);
    await delivery('pending-90d', 'pending', 90, false);
    expect((await new RetentionService(t.db, retention).prune()).webhookDeliveries).toBe(2);
    expect(await keys('SELECT event_key AS k FROM webhook_deliveries')).toEqual(['delivered-29d', 'pending-90d']);
  });

  it('a signed SMS webhook replayed after its receipt was pruned is still refused', async () => {
    const settings = new IntegrationSettingsService(
      t.db,
      createSecretBox(parseKeyring(`k:${randomBytes(32).toString('base64')}`)),
      (raw) => normalizeSmsPhone(raw, 'US'),
    );
    const secret = 'whsec-retention-0123456789';
    const base = 'https://erp.example.com';
    await settings.setSmsConfig(
      tenant,
      smsConfigSchema.parse({
        api_key: 'key-1234',
        api_secret: 'secret-5678',
        webhook_base_url: base,
        webhook_secret: secret,
      }),
    );
    // The provider's record of the message (webhooks are notices; the service reads the message back by id).
    const providerHas = {
      providerMessageId: '98765',
      direction: 'inbound' as const,
      line: '13035550100',
      contact: '13035550123',
      body: 'hello',
      status: 'delivered' as const,
      createdAt: new Date(),
    };
    const sms = new SmsService(t.db, settings, {
      ...justCallSmsAdapters(),
      reader: () => ({ getMessage: async (id: string) => (id === '98765' ? providerHas : null) }),
    });
    const deliveryAt = (at: Date) => {
      const timestamp = formatJustCallTimestamp(at);
      const type = 'sms.received';
      const body = JSON.stringify({
        request_id: 'req-1',
        webhook_url: `${base}/sms/webhook/sms`,
        type,
        data: {
          id: 98765,
          contact_number: '13035550123',
          justcall_number: '13035550100',
          direction: 'Incoming',
          sms_info: { body: 'hello' },
        },
      });
      const signature = signJustCall({ secret, webhookUrl: `${base}/sms/webhook/sms`, type, timestamp });
      return {
        rawBody: Buffer.from(body),
        headers: {
          'x-justcall-signature': signature,
          'x-justcall-signature-version': 'v1',
          'x-justcall-request-timestamp': timestamp,
        },
      };
    };
    const original = deliveryAt(new Date());
    expect(await sms.receiveWebhook(tenant, original)).toMatchObject({ kind: 'handled', handled: 'received' });
    expect(await sms.receiveWebhook(tenant, original)).toMatchObject({ kind: 'handled', handled: 'duplicate' });
    // The receipt outlives the freshness window by far: pruning keeps it now...
    await new RetentionService(t.db, retention).prune();
    expect(await sms.receiveWebhook(tenant, original)).toMatchObject({ handled: 'duplicate' });
    // ...and once it is older than the retention, so is the replay's signed timestamp: refused.
    await t.db.query(`UPDATE webhook_receipts SET received_at = $1 WHERE provider = 'sms'`, [ago(31 * 24)]);
    await new RetentionService(t.db, retention).prune();
    expect(
      (await t.db.query(`SELECT 1 FROM webhook_receipts WHERE provider = 'sms' AND event_id <> 'fresh'`)).rowCount,
    ).toBe(0);
    const replay = deliveryAt(ago(31 * 24));
    expect(await sms.receiveWebhook(tenant, replay)).toMatchObject({
      kind: 'unauthenticated',
      reason: 'stale_timestamp',
    });
    expect((await t.db.query(`SELECT 1 FROM sms_messages WHERE direction = 'inbound'`)).rowCount).toBe(1);
  });
});
