/**
 * SMS end to end against the local JustCall-style provider: sent from the default line through the
 * outbox, its status stored as the signed webhooks arrive; an inbound SMS attached to its partner
 * (or to a new lead); forged, stale and duplicate webhooks change nothing.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, migratePlatform, type TestDb } from '@platform/db';
import { createSecretBox, parseKeyring } from '@platform/secrets';
import { createJustCallSmsSender, normalizeSmsPhone, startLocalSms, type RunningLocalSms } from '@platform/providers';
import { startTestErp, type TestErp } from '@platform/app-worker/test-support/embedded-erp.js';
import { IntegrationSettingsService } from '../settings/integration-settings.service.js';
import { smsConfigSchema, smsLineSchema } from '../settings/settings.schemas.js';
import { SmsService, type WebhookOutcome } from './sms.service.js';

let t: TestDb;
let tenant: string;
let settings: IntegrationSettingsService;
let sms: SmsService;
let provider: RunningLocalSms;
let hook: Server;
let erp: TestErp;
const outcomes: WebhookOutcome[] = [];
const SECRET = 'whsec-local-sms-0123456789';

beforeAll(async () => {
  t = await createTestDb();
  await migratePlatform(t.db);
  tenant = (await t.db.query<{ id: string }>(`INSERT INTO tenants (slug, name, is_default) VALUES ('a', 'A', true) RETURNING id`)).rows[0]!.id;
  settings = new IntegrationSettingsService(t.db, createSecretBox(parseKeyring(`k:${randomBytes(32).toString('base64')}`)), (raw) => normalizeSmsPhone(raw, 'US'));
  sms = new SmsService(t.db, settings);
  // Our webhook endpoint: the raw body and headers go to the service, as the ERP-host route does.
  hook = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const o = await sms.receiveWebhook(tenant, { headers: req.headers, rawBody: Buffer.concat(chunks) });
      outcomes.push(o);
      res.writeHead(o.status).end();
    });
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(hook.address() as AddressInfo).port}`;
  await settings.setSmsConfig(tenant, smsConfigSchema.parse({ api_key: 'key-1234', api_secret: 'secret-5678', webhook_base_url: base, webhook_secret: SECRET }));
  await settings.addSmsLine(tenant, smsLineSchema.parse({ name: 'Sales Line', phone_number: '+1 303 555 0100', line_type: 'sales' }));
  await settings.addSmsLine(tenant, smsLineSchema.parse({ name: 'Support Line', phone_number: '+1 303 555 0199', line_type: 'support' }));
  provider = await startLocalSms({ apiKey: 'key-1234', apiSecret: 'secret-5678', webhookSecret: SECRET, webhookUrl: `${base}/sms/webhook/sms` });
  erp = await startTestErp();
}, 180_000);
afterAll(async () => {
  await provider?.close();
  await new Promise<void>((r) => hook?.close(() => r()));
  await erp?.close();
  await t?.drop();
});

const sender = (s: { apiKey: string; apiSecret: string }) => createJustCallSmsSender({ ...s, baseUrl: provider.url });
const messageRow = async (id: string) => (await t.db.query<Record<string, any>>('SELECT * FROM sms_messages WHERE id = $1', [id])).rows[0]!;

describe('SMS', () => {
  it('sends from the default line through the outbox and stores the provider id, then the delivered status', async () => {
    const q = await sms.queue(tenant, { to: '(720) 555-0123', body: 'Your installer arrives at 9 am.' });
    expect(q.from).toBe('13035550100');
    expect((await t.db.query(`SELECT 1 FROM outbox WHERE topic = 'sms.send' AND aggregate_id = $1`, [q.id])).rows).toHaveLength(1);
    const sent = await sms.deliver(tenant, q.id, sender);
    expect(provider.messages.at(-1)).toMatchObject({ line: '13035550100', contact: '17205550123', body: 'Your installer arrives at 9 am.' });
    // A redelivered job does not send twice.
    await sms.deliver(tenant, q.id, sender);
    expect(provider.messages.filter((m) => m.body === 'Your installer arrives at 9 am.')).toHaveLength(1);
    await provider.flushWebhooks();
    expect(await messageRow(q.id)).toMatchObject({ provider_message_id: sent.providerMessageId, status: 'delivered' });
  });

  it('sends from the line of a type', async () => {
    const q = await sms.queue(tenant, { to: '7205550124', body: 'Ticket received.', lineType: 'support' });
    expect(q.from).toBe('13035550199');
  });

  it('attaches an inbound SMS to the partner with that number, else to a new lead', async () => {
    const partner = await erp.erp.create('res.partner', { name: 'Pat Known', phone: '(720) 555-0177' });
    await provider.simulateInbound({ from: '17205550177', to: '13035550100', body: 'Can we move to Friday?' });
    await provider.simulateInbound({ from: '17205550999', to: '13035550100', body: 'Quote for shutters please' });
    const inbound = (await t.db.query<{ id: string; contact_number: string }>(`SELECT id, contact_number FROM sms_messages WHERE direction = 'inbound' ORDER BY created_at`)).rows;
    expect(inbound.map((m) => m.contact_number)).toEqual(['17205550177', '17205550999']);
    expect(await sms.attachInbound(inbound[0]!.id, erp.erp)).toEqual({ model: 'res.partner', id: partner });
    const lead = await sms.attachInbound(inbound[1]!.id, erp.erp);
    expect(lead.model).toBe('crm.lead');
    expect((await erp.erp.read('crm.lead', [lead.id], ['phone', 'description']))[0]).toMatchObject({ phone: '+17205550999' });
  });

  it('ignores a duplicate delivery and refuses a forged or stale one', async () => {
    const before = (await t.db.query('SELECT * FROM sms_messages')).rows.length;
    await provider.resendWebhook(undefined, 2);
    expect(outcomes.slice(-2)).toEqual([{ status: 200, handled: 'duplicate' }, { status: 200, handled: 'duplicate' }]);
    const forged = await fetch(`${(await settings.smsSecrets(tenant))!.webhookBaseUrl}/sms/webhook/sms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-justcall-signature': 'ab'.repeat(32), 'x-justcall-request-timestamp': '2026-11-22 10:00:00' },
      body: JSON.stringify({ request_id: 'forged-1', type: 'sms.received', data: { contact_number: '1', justcall_number: '2', sms_info: { body: 'hi' } } }),
    });
    expect(forged.status).toBe(401);
    provider.advanceTime(-10 * 60_000);
    await provider.simulateInbound({ from: '17205550555', to: '13035550100', body: 'old' });
    expect(outcomes.at(-1)).toEqual({ status: 401, reason: 'stale_timestamp' });
    provider.advanceTime(10 * 60_000);
    expect((await t.db.query('SELECT * FROM sms_messages')).rows.length).toBe(before);
  });
});
