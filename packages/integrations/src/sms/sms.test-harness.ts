/**
 * Test support for the SMS tests: a migrated platform database with one tenant, its SMS settings and
 * two lines, our webhook endpoint (the raw body and headers go to SmsService, as the ERP-host route
 * does), the local JustCall-style provider posting to it, and a real embedded ERP over HTTP.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { createTestDb, migratePlatform, type TestDb } from '@platform/db';
import { startTestErp, type TestErp } from '@platform/erp-embedded/testing';
import { justCallSmsAdapters, normalizeSmsPhone } from '@platform/providers';
import { type RunningLocalSms, startLocalSms } from '@platform/providers/local';
import { createSecretBox, parseKeyring } from '@platform/secrets';

import { IntegrationSettingsService } from '../settings/integration-settings.service.js';
import { smsConfigSchema, smsLineSchema } from '../settings/settings.schemas.js';
import { SmsService, type WebhookOutcome } from './sms.service.js';

/** As the ERP-host route answers. */
const WEBHOOK_STATUS: Record<WebhookOutcome['kind'], number> = {
  handled: 200,
  unauthenticated: 401,
  malformed: 400,
  unavailable: 503,
};

export type RouteAnswer = { status: number; handled: string } | { status: number; reason: string };

export const WEBHOOK_SECRET = 'whsec-local-sms-0123456789';
export const SMS_API = { api_key: 'key-1234', api_secret: 'secret-5678' };

export interface SmsHarness {
  t: TestDb;
  tenant: string;
  settings: IntegrationSettingsService;
  sms: SmsService;
  provider: RunningLocalSms;
  erp: TestErp;
  /** Our webhook URL (`…/sms/webhook/sms`). */
  hookUrl: string;
  /** What the route answered, as the provider saw it: the status and the handling or the reason. */
  outcomes: RouteAnswer[];
  /** Saves the SMS configuration again (e.g. a new webhook secret). */
  configure(over?: Record<string, unknown>): Promise<Record<string, unknown>>;
  rows(sql: string, params?: unknown[]): Promise<Record<string, any>[]>;
  close(): Promise<void>;
}

export async function startSmsHarness(): Promise<SmsHarness> {
  const t = await createTestDb(process.env, { migrated: true });
  await migratePlatform(t.db);
  const tenant = (
    await t.db.query<{ id: string }>(
      `INSERT INTO tenants (slug, name, is_default) VALUES ('a', 'A', true) RETURNING id`,
    )
  ).rows[0]!.id;
  const settings = new IntegrationSettingsService(
    t.db,
    createSecretBox(parseKeyring(`k:${randomBytes(32).toString('base64')}`)),
    (raw) => normalizeSmsPhone(raw, 'US'),
  );
  const sms = new SmsService(t.db, settings, {
    ...justCallSmsAdapters(),
    reader: (s) => justCallSmsAdapters({ baseUrl: provider.url }).reader(s),
  });
  const outcomes: RouteAnswer[] = [];
  const hook: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const o = await sms.receiveWebhook(tenant, { headers: req.headers, rawBody: Buffer.concat(chunks) });
      const { kind, ...rest } = o;
      outcomes.push({ status: WEBHOOK_STATUS[kind], ...rest });
      res.writeHead(WEBHOOK_STATUS[kind]).end();
    });
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(hook.address() as AddressInfo).port}`;
  const configure = (over: Record<string, unknown> = {}) =>
    settings.setSmsConfig(
      tenant,
      smsConfigSchema.parse({ ...SMS_API, webhook_base_url: base, webhook_secret: WEBHOOK_SECRET, ...over }),
    );
  await configure();
  await settings.addSmsLine(
    tenant,
    smsLineSchema.parse({ name: 'Sales Line', phone_number: '+1 303 555 0100', line_type: 'sales' }),
  );
  await settings.addSmsLine(
    tenant,
    smsLineSchema.parse({ name: 'Support Line', phone_number: '+1 303 555 0199', line_type: 'support' }),
  );
  // The reader above reads `provider` only when a message is sent, after this line.
  const provider = await startLocalSms({
    apiKey: SMS_API.api_key,
    apiSecret: SMS_API.api_secret,
    webhookSecret: WEBHOOK_SECRET,
    webhookUrl: `${base}/sms/webhook/sms`,
  });
  const erp = await startTestErp({ db: t.db, dbName: 'smserp' });
  return {
    t,
    tenant,
    settings,
    sms,
    provider,
    erp,
    outcomes,
    configure,
    hookUrl: `${base}/sms/webhook/sms`,
    rows: async (sql, params = []) => (await t.db.query<Record<string, any>>(sql, params)).rows,
    async close() {
      await provider.close();
      await new Promise<void>((r) => hook.close(() => r()));
      await erp.close();
      await t.drop();
    },
  };
}
