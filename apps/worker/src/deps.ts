/**
 * The worker's composition root: the only place that constructs its parts (outbox relay and topic
 * handlers, email lanes, ERP change feed, retention, and the vendors behind each port). Nothing
 * here starts: worker.ts starts and stops what this returns.
 */
import { hostname } from 'node:os';

import {
  ERP_EVENT_TOPICS,
  TOPIC_CHAT_NOTIFY,
  TOPIC_CONVERSION,
  TOPIC_ESTIMATE,
  TOPIC_HELPDESK,
  TOPIC_INVOICE_CARD_PAYMENT,
  TOPIC_ORDER_WON,
  TOPIC_SMS_INBOUND,
  TOPIC_SMS_SEND,
} from '@platform/contracts';
import type { Db } from '@platform/db';
import { createEmailLanes, type EmailLanes } from '@platform/email';
import { createLogger, RateLimiter } from '@platform/http-kit';
import { markDelivered } from '@platform/intake';
import {
  type AccountingServices,
  ChatNotifierService,
  chatOrigins,
  createAccountingServices,
  IntegrationSettingsService,
  SmsService,
} from '@platform/integrations';
import { newId } from '@platform/kernel';
import { type OutboxHandlers, OutboxRelay } from '@platform/outbox';
import {
  type ConversionsSender,
  createGoogleChatPoster,
  createLogConversionsSender,
  createMetaCapiSender,
  justCallSmsAdapters,
  normalizeSmsPhone,
  xeroAccountingAdaptersOf,
} from '@platform/providers';
import type { TenantErps } from '@platform/tenancy';
import { WebhookDispatch } from '@platform/webhooks';

import type { WorkerConfig } from './config.js';
import { workerTenantErps } from './erp-connections.js';
import { accountingHandlers } from './features/accounting/accounting.jobs.js';
import { AccountingReconcileRunner } from './features/accounting/accounting-reconcile.runner.js';
import { createCertificateJob } from './features/certificates/certificates.job.js';
import { ChangeFeedRunner } from './features/change-feed/change-feed.runner.js';
import { ChangeFeedService } from './features/change-feed/change-feed.service.js';
import { deliverConversion } from './features/conversions/conversion-delivery.js';
import { conversionsSenderOf } from './features/conversions/conversion-senders.js';
import { googleAdsSenderOf } from './features/conversions/google-ads.config.js';
import { deliverOrderWon } from './features/conversions/order-won-delivery.js';
import { requeueCertificate, tenantDomainCertificateHooks } from './features/domains/certificate-hookup.js';
import { createDomainCheckJob } from './features/domains/domain-check.job.js';
import { fanOutErpEvent } from './features/erp-events/erp-event-fanout.js';
import { ErpRecoveryRunner } from './features/erp-recovery/erp-recovery.runner.js';
import { invoiceCardPaymentHandler } from './features/invoicing/invoice-card-payment.job.js';
import { LeadDeliveryService } from './features/leads/lead-delivery.service.js';
import { composeWorkerMetrics, type WorkerMetrics } from './features/metrics/worker-metrics.js';
import { RetentionRunner } from './features/retention/retention.runner.js';
import { RetentionService } from './features/retention/retention.service.js';
import { queueLeadCreated, webhookHandlers } from './features/webhooks/webhook.jobs.js';
import { secretBoxFrom } from './secrets.js';

export type Logger = ReturnType<typeof createLogger>;

/** What the worker runs; the optional parts are off by configuration (interval 0). */
export interface WorkerParts {
  relay: OutboxRelay;
  /** Outbound webhooks: their own relay, so their long retries hold nothing else up. */
  webhooks: OutboxRelay;
  email: EmailLanes;
  feed: ChangeFeedRunner | undefined;
  pruning: RetentionRunner | undefined;
  certificates: ReturnType<typeof createCertificateJob>;
  /** Served by worker.ts's caller on WORKER_METRICS_PORT (features/metrics). */
  metrics: WorkerMetrics;
  domainChecks: ReturnType<typeof createDomainCheckJob>;
  /** Wakes deliveries waiting for an unreachable ERP when it answers again (ERP_RECOVERY_PROBE_MS). */
  erpRecovery: ErpRecoveryRunner | undefined;
  /** Repairs residuals a lost provider notice left wrong (ACCOUNTING_RECONCILE_INTERVAL_MS). */
  accountingReconcile: AccountingReconcileRunner | undefined;
}

/** Meta's Conversions API with META_PIXEL_ID and META_ACCESS_TOKEN set, else none. */
function metaSender(config: WorkerConfig): ConversionsSender | undefined {
  return config.META_PIXEL_ID && config.META_ACCESS_TOKEN
    ? createMetaCapiSender({
        graphUrl: config.META_GRAPH_URL,
        pixelId: config.META_PIXEL_ID,
        accessToken: config.META_ACCESS_TOKEN,
        defaultCountryCode: config.META_DEFAULT_COUNTRY_CODE,
        ...(config.META_TEST_EVENT_CODE ? { testEventCode: config.META_TEST_EVENT_CODE } : {}),
      })
    : undefined;
}

function workerSettings(config: WorkerConfig, db: Db): IntegrationSettingsService {
  return new IntegrationSettingsService(
    db,
    secretBoxFrom(config),
    (raw) => normalizeSmsPhone(raw, config.SMS_DEFAULT_REGION),
    chatOrigins(config.CHAT_ALLOWED_ORIGINS),
  );
}

function workerAccountingServices(
  config: WorkerConfig,
  db: Db,
  settings = workerSettings(config, db),
): AccountingServices {
  return createAccountingServices(db, settings, xeroAccountingAdaptersOf(config));
}

/** Every outbox topic the main relay delivers, each handler typed by its topic's payload. */
export function buildHandlers(
  config: WorkerConfig,
  db: Db,
  logger: Logger,
  erps: TenantErps,
  wake: () => void,
  /** Shared with the periodic reconciliation (one token cache); built here when absent. */
  accountingServices?: AccountingServices,
): OutboxHandlers {
  // Every delivery goes to the ERP of the row's tenant (its own database and service account).
  const erpOfTenant = (tenantId: string) => erps.forTenant(tenantId);
  const settings = workerSettings(config, db);
  const chat = new ChatNotifierService(
    settings,
    createGoogleChatPoster({ allowedOrigins: chatOrigins(config.CHAT_ALLOWED_ORIGINS) }),
    new RateLimiter(db),
  );
  const fanOut = fanOutErpEvent(db, wake);
  const sms = new SmsService(db, settings, justCallSmsAdapters({ baseUrl: config.SMS_API_URL }), wake);
  const leads = (tenantId: string) =>
    new LeadDeliveryService(
      () => erpOfTenant(tenantId),
      { markDelivered: (id, model, erpId) => markDelivered(db, id, model, erpId) },
      config.ERP_STRUCTURED_ATTRIBUTION === 'on',
    );
  const platformMeta = metaSender(config);
  const logConversions = createLogConversionsSender(logger);
  // Per tenant: its own pixel and token; the platform's META_* (or the log driver) only for its own site.
  const conversions = conversionsSenderOf(db, secretBoxFrom(config), config, platformMeta ?? logConversions);
  const googleAds = googleAdsSenderOf(config);
  const accounting = accountingServices ?? workerAccountingServices(config, db, settings);
  return {
    [TOPIC_ESTIMATE]: async (row) => {
      const lead = await leads(row.tenant_id).deliverEstimate(row.payload);
      await queueLeadCreated(db, row.tenant_id, row.payload, lead);
      wake();
      return lead;
    },
    [TOPIC_HELPDESK]: (row) => leads(row.tenant_id).deliverHelpdesk(row.payload),
    [TOPIC_CONVERSION]: async (row) => {
      const sender = await conversions(row.tenant_id);
      // A tenant without its own credentials sends nothing (never the platform's, never another's).
      return sender ? deliverConversion(sender, row.payload) : { skipped: 'no_credentials' };
    },
    [TOPIC_ORDER_WON]: async (row) => {
      const sender = await conversions(row.tenant_id);
      // The log driver stands in for leads only: a won order goes to Meta with real credentials only.
      const meta = sender && sender !== logConversions ? sender : undefined;
      return deliverOrderWon({ google: googleAds, meta }, row.payload);
    },
    ...Object.fromEntries(ERP_EVENT_TOPICS.map((t) => [t, fanOut])),
    [TOPIC_SMS_SEND]: (row) => sms.deliver(row.tenant_id, row.payload.messageId),
    [TOPIC_SMS_INBOUND]: async (row) => sms.attachInbound(row.payload.messageId, await erpOfTenant(row.tenant_id)),
    ...accountingHandlers(accounting, erpOfTenant),
    [TOPIC_INVOICE_CARD_PAYMENT]: invoiceCardPaymentHandler(erpOfTenant),
    [TOPIC_CHAT_NOTIFY]: (row) =>
      chat.notify(row.tenant_id, row.payload.eventTopic, row.payload.event, `outbox-${row.id}`),
  };
}

export function composeWorker(config: WorkerConfig, db: Db, logger: Logger): WorkerParts {
  const metrics = composeWorkerMetrics(config, db);
  const erps = workerTenantErps(config, db, metrics.observerFor);
  const tuning = {
    pollMs: config.OUTBOX_POLL_MS,
    maxAttempts: config.OUTBOX_MAX_ATTEMPTS,
    baseDelayMs: config.OUTBOX_BASE_DELAY_MS,
    maxDelayMs: config.OUTBOX_MAX_DELAY_MS,
  };
  const accounting = workerAccountingServices(config, db);
  const relay: OutboxRelay = new OutboxRelay({
    db,
    workerId: `${hostname()}:${process.pid}:${newId().slice(0, 8)}`,
    handlers: buildHandlers(config, db, logger, erps, () => (relay.wake(), webhooks.wake()), accounting),
    logger,
    ...tuning,
    visibilityTimeoutMs: config.OUTBOX_CLAIM_TIMEOUT_MS,
  });
  const webhooks: OutboxRelay = new OutboxRelay({
    db,
    workerId: `${hostname()}:${process.pid}:webhooks:${newId().slice(0, 8)}`,
    handlers: webhookHandlers(
      new WebhookDispatch({
        db,
        box: secretBoxFrom(config),
        maxAttempts: config.WEBHOOK_MAX_ATTEMPTS,
        orderWaitMs: config.WEBHOOK_ORDER_WAIT_MS,
        timeoutMs: config.WEBHOOK_TIMEOUT_MS,
        allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK === 'on',
        wake: () => webhooks.wake(),
      }),
    ),
    logger,
    ...tuning,
    maxAttempts: config.WEBHOOK_MAX_ATTEMPTS,
    maxDelayMs: config.WEBHOOK_MAX_DELAY_MS,
    visibilityTimeoutMs: config.OUTBOX_CLAIM_TIMEOUT_MS,
  });
  // Email has its own lanes (transactional, bulk), so mail never waits behind other topics or bulk.
  const email = createEmailLanes({
    config,
    db,
    logger,
    workerId: `${hostname()}:${process.pid}`,
    box: secretBoxFrom(config),
    relay: tuning,
  });
  // CHANGE_FEED_POLL_MS=0 turns the ERP change feed off (e.g. on all but one worker, to save ERP calls).
  const feed =
    config.CHANGE_FEED_POLL_MS > 0
      ? new ChangeFeedRunner(
          new ChangeFeedService(db, {
            defaultErpDb: config.ERP_DB,
            erpFor: (tenantId) => erps.forTenant(tenantId),
            onEvents: () => relay.wake(),
            logger,
          }),
          config.CHANGE_FEED_POLL_MS,
        )
      : undefined;
  const retention = {
    idempotencyKeyHours: config.IDEMPOTENCY_KEY_RETENTION_H,
    webhookReceiptDays: config.WEBHOOK_RECEIPT_RETENTION_DAYS,
    outboxDoneDays: config.OUTBOX_DONE_RETENTION_DAYS,
    webhookDeliveryDays: config.WEBHOOK_DELIVERY_RETENTION_DAYS,
  };
  const pruning =
    config.PRUNE_INTERVAL_MS > 0
      ? new RetentionRunner(new RetentionService(db, retention), config.PRUNE_INTERVAL_MS, logger)
      : undefined;
  // Certificates for tenant domains (off unless ACME_DIRECTORY_URL is set).
  // Their candidates are the custom domains whose CNAME the DNS check saw (docs/certificates.md).
  const certificates = createCertificateJob(
    config,
    db,
    secretBoxFrom(config),
    logger,
    tenantDomainCertificateHooks(db),
  );
  const domainChecks = createDomainCheckJob(config, db, logger, (d) => requeueCertificate(db, d));
  const erpRecovery =
    config.ERP_RECOVERY_PROBE_MS > 0
      ? new ErpRecoveryRunner({
          db,
          probe: async (tenantId) => (await erps.forTenant(tenantId)).version(),
          wake: () => relay.wake(),
          probeMs: config.ERP_RECOVERY_PROBE_MS,
          logger,
        })
      : undefined;
  const accountingReconcile =
    config.ACCOUNTING_RECONCILE_INTERVAL_MS > 0
      ? new AccountingReconcileRunner(
          accounting.audit,
          (tenantId) => erps.forTenant(tenantId),
          config.ACCOUNTING_RECONCILE_INTERVAL_MS,
          logger,
          () => relay.wake(),
        )
      : undefined;
  return {
    relay,
    webhooks,
    email,
    feed,
    pruning,
    certificates,
    metrics,
    domainChecks,
    erpRecovery,
    accountingReconcile,
  };
}
