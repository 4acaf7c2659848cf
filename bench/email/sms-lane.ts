/**
 * The SMS lane of npm run bench:email: texts per second through the SMS outbox (SmsService.queue
 * committed, then a relay of `sms.send` jobs runs SmsService.deliver: message row, opt-out check,
 * provider call, provider id stored) against direct calls of the same JustCall sender to the same
 * local SMS stand-in (loopback), CONCURRENCY at a time, in the same run.
 */
import { randomBytes } from 'node:crypto';

import { TOPIC_SMS_SEND } from '@platform/contracts';
import type { Db } from '@platform/db';
import { IntegrationSettingsService, SmsService } from '@platform/integrations';
import { smsConfigSchema, smsLineSchema } from '@platform/integrations/settings/settings.schemas.js';
import { OutboxRelay } from '@platform/outbox';
import { createJustCallSmsSender, justCallSmsAdapters, normalizeSmsPhone } from '@platform/providers';
import { startLocalSms } from '@platform/providers/local';
import { createSecretBox, parseKeyring } from '@platform/secrets';

const silent = { info() {}, warn() {}, error() {} };
const API = { apiKey: 'bench-key-0001', apiSecret: 'bench-secret-0001' };

/** Rounds (the first a warm-up, not returned) of outbox and direct texts per second. */
export async function smsLane(
  db: Db,
  tenantId: string,
  o: { n: number; rounds: number; concurrency: number },
): Promise<{ outbox: number; direct: number; failed: boolean }[]> {
  const provider = await startLocalSms({ ...API, webhookSecret: 'bench-webhook-secret-0001' });
  const settings = new IntegrationSettingsService(
    db,
    createSecretBox(parseKeyring(`k:${randomBytes(32).toString('base64')}`)),
    (raw) => normalizeSmsPhone(raw, 'US'),
  );
  try {
    await settings.setSmsConfig(
      tenantId,
      smsConfigSchema.parse({ api_key: API.apiKey, api_secret: API.apiSecret, webhook_base_url: 'http://127.0.0.1:9' }),
    );
    await settings.addSmsLine(
      tenantId,
      smsLineSchema.parse({ name: 'Bench', phone_number: '+1 303 555 0100', line_type: 'sales' }),
    );
    const sms = new SmsService(db, settings, justCallSmsAdapters({ baseUrl: provider.url }));
    const relay = new OutboxRelay({
      db,
      workerId: 'bench-sms',
      handlers: { [TOPIC_SMS_SEND]: (row) => sms.deliver(row.tenant_id, row.payload.messageId) },
      logger: silent,
      batchSize: o.concurrency,
    });
    const direct = createJustCallSmsSender({ ...API, baseUrl: provider.url });
    const out: { outbox: number; direct: number; failed: boolean }[] = [];
    for (let r = 0; r <= o.rounds; r++) {
      const before = provider.messages.length;
      let t0 = performance.now();
      for (let i = 0; i < o.n; i += o.concurrency)
        await Promise.all(
          Array.from({ length: Math.min(o.concurrency, o.n - i) }, (_, j) =>
            direct.send({
              from: '13035550100',
              to: `1720555${String(1000 + ((i + j) % 9000)).padStart(4, '0')}`,
              body: `Direct ${r}-${i + j}`,
            }),
          ),
        );
      const directRate = o.n / ((performance.now() - t0) / 1000);
      for (let i = 0; i < o.n; i++)
        await sms.queue(tenantId, {
          to: `+1720555${String(1000 + (i % 9000)).padStart(4, '0')}`,
          body: `Outbox ${r}-${i}`,
        });
      t0 = performance.now();
      while ((await relay.tick()) > 0);
      const outboxRate = o.n / ((performance.now() - t0) / 1000);
      const failed = provider.messages.length - before !== 2 * o.n;
      if (r > 0) out.push({ outbox: outboxRate, direct: directRate, failed });
    }
    return out;
  } finally {
    await provider.close();
  }
}
