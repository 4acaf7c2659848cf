/**
 * The worker: relays the outbox (submissions to the ERP, conversion events to Meta). Runs as its own
 * process (main.ts) or inside the single-process platform, sharing the platform database.
 */
import { hostname } from 'node:os';
import { migratePlatform, openDb, type Db } from '@platform/db';
import { createLogger } from '@platform/http-kit';
import { newId } from '@platform/kernel';
import { OutboxRelay, type OutboxHandler } from '@platform/outbox';
import { createLogConversionsSender, createMetaCapiSender, type ConversionsSender } from '@platform/providers';
import { TOPIC_CONVERSION, TOPIC_ESTIMATE, TOPIC_HELPDESK, type ConversionPayload, type EstimatePayload, type HelpdeskPayload } from '@platform/contracts';
import type { WorkerConfig } from './config.js';
import { ErpConnections } from './erp-connections.js';
import { LeadDeliveryService } from './features/leads/lead-delivery.service.js';
import { submissionRecorder } from './features/leads/delivery.repo.js';
import { deliverConversion } from './features/conversions/conversion-delivery.js';
import { ChangeFeedService } from './features/change-feed/change-feed.service.js';
import { ChangeFeedRunner } from './features/change-feed/change-feed.runner.js';
import { fanOutErpEvent } from './features/erp-events/erp-event-fanout.js';
import { chatOrigins, ChatNotifierService, IntegrationSettingsService, SmsService, TOPIC_SMS_INBOUND } from '@platform/integrations';
import { RateLimiter } from '@platform/http-kit';
import { createGoogleChatPoster, justCallSmsAdapters, normalizeSmsPhone } from '@platform/providers';
import { ERP_EVENT_TOPICS, TOPIC_CHAT_NOTIFY, TOPIC_SMS_SEND, type DerivedJobPayload } from '@platform/contracts';
import { secretBoxFrom } from './secrets.js';
import { accountingHandlers } from './features/accounting/accounting.jobs.js';
import { RetentionService } from './features/retention/retention.service.js';
import { RetentionRunner } from './features/retention/retention.runner.js';
import { startEmailLanes } from '@platform/email';
import { createCertificateJob } from './features/certificates/certificates.job.js';

export interface RunningWorker {
  relay: OutboxRelay;
  /** Poll now (called by an in-process landing host after a commit). */
  wake(): void;
  close(): Promise<void>;
  /** Longest a graceful shutdown may take (SHUTDOWN_TIMEOUT_MS) before the process exits anyway. */
  shutdownDeadlineMs: number;
}

type Logger = ReturnType<typeof createLogger>;

export function buildHandlers(config: WorkerConfig, db: Db, logger: Logger, erps = new ErpConnections(config), wake: () => void = () => {}): Record<string, OutboxHandler> {
  const settings = new IntegrationSettingsService(db, secretBoxFrom(config), (raw) => normalizeSmsPhone(raw, config.SMS_DEFAULT_REGION), chatOrigins(config.CHAT_ALLOWED_ORIGINS));
  const chat = new ChatNotifierService(
    settings,
    createGoogleChatPoster({ allowedOrigins: chatOrigins(config.CHAT_ALLOWED_ORIGINS) }),
    new RateLimiter(db),
  );
  const fanOut = fanOutErpEvent(db, wake);
  const sms = new SmsService(db, settings, justCallSmsAdapters({ baseUrl: config.SMS_API_URL }), wake);
  const erpOfTenant = async (tenantId: string) =>
    erps.forDatabase((await db.query<{ erp_db: string | null }>('SELECT erp_db FROM tenants WHERE id = $1', [tenantId])).rows[0]?.erp_db ?? null);
  const leads = new LeadDeliveryService((name) => erps.forDatabase(name), submissionRecorder(db), config.ERP_STRUCTURED_ATTRIBUTION === 'on');
  const conversions: ConversionsSender =
    config.META_PIXEL_ID && config.META_ACCESS_TOKEN
      ? createMetaCapiSender({
          graphUrl: config.META_GRAPH_URL,
          pixelId: config.META_PIXEL_ID,
          accessToken: config.META_ACCESS_TOKEN,
          defaultCountryCode: config.META_DEFAULT_COUNTRY_CODE,
          ...(config.META_TEST_EVENT_CODE ? { testEventCode: config.META_TEST_EVENT_CODE } : {}),
        })
      : createLogConversionsSender(logger);
  return {
    [TOPIC_ESTIMATE]: (row) => leads.deliverEstimate(row.payload as unknown as EstimatePayload),
    [TOPIC_HELPDESK]: (row) => leads.deliverHelpdesk(row.payload as unknown as HelpdeskPayload),
    [TOPIC_CONVERSION]: (row) => deliverConversion(conversions, row.payload as unknown as ConversionPayload),
    ...Object.fromEntries(ERP_EVENT_TOPICS.map((t) => [t, fanOut])),
    [TOPIC_SMS_SEND]: (row) =>
      sms.deliver(row.tenant_id, String(row.payload.messageId)),
    [TOPIC_SMS_INBOUND]: async (row) => sms.attachInbound(String(row.payload.messageId), await erpOfTenant(row.tenant_id)),
    ...accountingHandlers(config, db, settings, (name) => erps.forDatabase(name)),
    [TOPIC_CHAT_NOTIFY]: (row) => {
      const job = row.payload as unknown as DerivedJobPayload;
      return chat.notify(row.tenant_id, job.eventTopic, job.event, `outbox-${row.id}`);
    },
  };
}

export async function startWorker(config: WorkerConfig, opts: { db?: Db; logger?: Logger } = {}): Promise<RunningWorker> {
  const logger = opts.logger ?? createLogger(config.LOG_LEVEL, 'worker');
  const ownDb = !opts.db;
  const db = opts.db ?? (await openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, name: 'platform', owner: true }));
  if (ownDb) await migratePlatform(db);
  const erps = new ErpConnections(config);
  const relay = new OutboxRelay({
    db,
    workerId: `${hostname()}:${process.pid}:${newId().slice(0, 8)}`,
    handlers: buildHandlers(config, db, logger, erps, () => relay.wake()),
    logger,
    pollMs: config.OUTBOX_POLL_MS,
    maxAttempts: config.OUTBOX_MAX_ATTEMPTS,
    baseDelayMs: config.OUTBOX_BASE_DELAY_MS,
    maxDelayMs: config.OUTBOX_MAX_DELAY_MS,
    visibilityTimeoutMs: config.OUTBOX_CLAIM_TIMEOUT_MS,
  });
  relay.start();
  // Email has its own lanes (transactional, bulk), so mail never waits behind other topics or bulk.
  const email = startEmailLanes({ config, db, logger, workerId: `${hostname()}:${process.pid}`, box: secretBoxFrom(config), relay: { pollMs: config.OUTBOX_POLL_MS, maxAttempts: config.OUTBOX_MAX_ATTEMPTS, baseDelayMs: config.OUTBOX_BASE_DELAY_MS, maxDelayMs: config.OUTBOX_MAX_DELAY_MS } });
  // CHANGE_FEED_POLL_MS=0 turns the ERP change feed off (e.g. on all but one worker, to save ERP calls).
  const feed =
    config.CHANGE_FEED_POLL_MS > 0
      ? new ChangeFeedRunner(
          new ChangeFeedService(db, { defaultErpDb: config.ERP_DB, erpFor: (name) => erps.forDatabase(name), onEvents: () => relay.wake(), logger }),
          config.CHANGE_FEED_POLL_MS,
        )
      : undefined;
  feed?.start();
  const pruning =
    config.PRUNE_INTERVAL_MS > 0
      ? new RetentionRunner(
          new RetentionService(db, {
            idempotencyKeyHours: config.IDEMPOTENCY_KEY_RETENTION_H,
            webhookReceiptDays: config.WEBHOOK_RECEIPT_RETENTION_DAYS,
            outboxDoneDays: config.OUTBOX_DONE_RETENTION_DAYS,
          }),
          config.PRUNE_INTERVAL_MS,
          logger,
        )
      : undefined;
  pruning?.start();
  const certificates = createCertificateJob(config, db, secretBoxFrom(config), logger);
  certificates?.start();
  let closing: Promise<void> | undefined;
  return {
    relay,
    wake: () => (relay.wake(), email.wake()),
    shutdownDeadlineMs: config.SHUTDOWN_TIMEOUT_MS,
    // Stop finishes the rows in hand and releases claims before the database closes.
    close: () => (closing ??= (async () => {
      await feed?.stop();
      await pruning?.stop();
      await certificates?.stop();
      await relay.stop();
      await email.close();
      if (ownDb) await db.close();
    })()),
  };
}
