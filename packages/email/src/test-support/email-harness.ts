/**
 * Test harness: a platform database with two tenants (Acme with a verified sending domain, Beta
 * without), the loopback SMTP server, the local Postmark stand-in relaying into it, the local SNS
 * signer, the email lanes (driven by tick()) and the webhook routes on a Fastify app (inject()).
 */
import { createTestDb, migratePlatform, type TestDb } from '@platform/db';
import { type RunningLocalSns, startLocalSns } from '@platform/providers/email/local/local-sns.signer.js';
import { type RunningLocalPostmark, startLocalPostmark } from '@platform/providers/local';
import { setEmailSettings, upsertTenantSettings } from '@platform/tenancy';
import Fastify, { type FastifyInstance } from 'fastify';

import { type EmailLanes, startEmailLanes } from '../delivery/email-lanes.js';
import { type EmailConfig, emailConfigDefaults } from '../email.config.js';
import { registerEmailWebhooks } from '../webhooks/email-webhook.plugin.js';
import { composeEmailWebhooks } from '../webhooks/email-webhooks.compose.js';
import { type SmtpSink, startSmtpSink } from './smtp-sink.js';

export const POSTMARK_TOKEN = 'pm-server-token-local-0001';
export const HOOK_USER = 'postmark';
export const HOOK_PASSWORD = 'hook-password-0123456789abcdef';

export interface EmailHarness {
  t: TestDb;
  acme: string;
  beta: string;
  smtp: SmtpSink;
  postmark: RunningLocalPostmark;
  sns: RunningLocalSns;
  config: EmailConfig;
  lanes: EmailLanes;
  app: FastifyInstance;
  close(): Promise<void>;
}

const silent = { info() {}, warn() {}, error() {} };

export async function startEmailHarness(overrides: Partial<EmailConfig> = {}): Promise<EmailHarness> {
  const t = await createTestDb(process.env, { migrated: true });
  await migratePlatform(t.db);
  const tenant = async (slug: string, name: string) =>
    (await t.db.query<{ id: string }>('INSERT INTO tenants (slug, name) VALUES ($1, $2) RETURNING id', [slug, name]))
      .rows[0]!.id;
  const acme = await tenant('acme', 'Acme');
  const beta = await tenant('beta', 'Beta');
  await upsertTenantSettings(t.db, acme, {
    company_name: 'Acme Blinds',
    primary_color: '#AA3300',
    phone: '+1 303 555 0100',
    email: 'office@acme.test',
  });
  await setEmailSettings(t.db, acme, {
    from_name: 'Acme Blinds',
    reply_to: 'office@acme.test',
    domain: {
      name: 'mail.acme.test',
      status: 'verified',
      dkim_selector: 'pm1',
      dkim_record: 'v=DKIM1; k=rsa; p=x',
      dkim_private_key_sealed: '',
      added_at: new Date().toISOString(),
    },
  });
  await upsertTenantSettings(t.db, beta, { company_name: 'Beta Shades', email: 'hello@beta.test' });
  const smtp = await startSmtpSink();
  const postmark = await startLocalPostmark({ serverToken: POSTMARK_TOKEN, relaySmtpUrl: smtp.url });
  const sns = await startLocalSns();
  const config = emailConfigDefaults({
    POSTMARK_SERVER_TOKEN: POSTMARK_TOKEN,
    POSTMARK_API_URL: postmark.url,
    EMAIL_SECONDARY_SMTP_URL: smtp.url,
    EMAIL_SES_CONFIGURATION_SET: 'platform-feedback',
    EMAIL_PLATFORM_DOMAIN: 'platform.test',
    EMAIL_BREAKER_FAILURES: 2,
    EMAIL_BREAKER_RESET_MS: 300,
    EMAIL_WEBHOOK_POSTMARK_USER: HOOK_USER,
    EMAIL_WEBHOOK_POSTMARK_PASSWORD: HOOK_PASSWORD,
    EMAIL_SNS_TOPIC_ARNS: sns.topicArn,
    EMAIL_SNS_CERT_HOST_PATTERN: '^127\\.0\\.0\\.1$',
    EMAIL_SNS_ALLOW_HTTP_LOOPBACK: 'on',
    ...overrides,
  });
  const lanes = startEmailLanes({
    config,
    db: t.db,
    logger: silent,
    workerId: 'test',
    start: false,
    relay: { baseDelayMs: 10, maxDelayMs: 20, maxAttempts: 3 },
  });
  const app = Fastify({ logger: false });
  registerEmailWebhooks(app, composeEmailWebhooks(config, t.db, lanes.services.suppressions));
  await app.ready();
  return {
    t,
    acme,
    beta,
    smtp,
    postmark,
    sns,
    config,
    lanes,
    app,
    close: async () => {
      await app.close();
      await lanes.close();
      await Promise.all([postmark.close(), sns.close()]);
      await smtp.close();
      await t.drop();
    },
  };
}
