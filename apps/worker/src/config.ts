/** The worker's environment, validated once at start-up (the only reader of process.env here). */
import { emailEnvShape, refineEmailConfig } from '@platform/email/email.config.js';
import { metricsEnvShape } from '@platform/http-kit';
import { type EnvSource, readConfig, sharedEnvShape } from '@platform/kernel';
import { domainCheckEnvShape } from '@platform/tenancy';
import { z } from 'zod';

import { googleAdsEnvShape, refineGoogleAds } from './features/conversions/google-ads.config.js';

const int = (min: number, max: number) =>
  z.coerce.number().int('must be an integer').min(min, `must be at least ${min}`).max(max, `must be at most ${max}`);

export const workerEnvSchema = z
  .object({
    ...sharedEnvShape,
    ERP_URL: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL of the ERP (Odoo 15 or the embedded ERP)' })
      .default('http://127.0.0.1:8069'),
    ERP_DB: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/, 'must be an ERP database name')
      .default('platform'),
    ERP_TIMEOUT_MS: int(500, 120_000).default(15_000),
    ERP_STRUCTURED_ATTRIBUTION: z.enum(['on', 'off'], 'must be on or off').default('off'),
    OUTBOX_MAX_ATTEMPTS: int(1, 100).default(10),
    OUTBOX_BASE_DELAY_MS: int(10, 3_600_000).default(1_000),
    OUTBOX_MAX_DELAY_MS: int(100, 86_400_000).default(300_000),
    OUTBOX_POLL_MS: int(50, 60_000).default(500),
    CHANGE_FEED_POLL_MS: int(0, 3_600_000).default(5_000),
    // How often deliveries waiting for an unreachable ERP probe it, to go as soon as it answers (0: off).
    ERP_RECOVERY_PROBE_MS: int(0, 600_000).default(1_000),
    // A claimed row whose worker stopped refreshing its claim this long goes back to pending.
    OUTBOX_CLAIM_TIMEOUT_MS: int(1_000, 3_600_000).default(30_000),
    // Longest a graceful shutdown (finish rows in hand, release claims) may take before exiting anyway.
    SHUTDOWN_TIMEOUT_MS: int(1_000, 600_000).default(30_000),
    // How often synced invoices' ERP residuals are compared with the accounting provider's AmountDue
    // and repaired where a notice was lost (docs/integrations.md "Accounting"); 0 turns it off here.
    ACCOUNTING_RECONCILE_INTERVAL_MS: int(0, 86_400_000).default(900_000),
    // Retention of bookkeeping rows (docs/retention.md); PRUNE_INTERVAL_MS=0 turns pruning off here.
    PRUNE_INTERVAL_MS: int(0, 86_400_000).default(600_000),
    IDEMPOTENCY_KEY_RETENTION_H: int(1, 24 * 90).default(24),
    WEBHOOK_RECEIPT_RETENTION_DAYS: int(1, 3650).default(30),
    OUTBOX_DONE_RETENTION_DAYS: int(1, 3650).default(7),
    // Outbound webhooks (docs/control-plane.md, "Outbound webhooks"): their own relay and retry budget,
    // long enough that a receiver down for hours still gets every event, in order.
    WEBHOOK_MAX_ATTEMPTS: int(1, 100).default(24),
    WEBHOOK_MAX_DELAY_MS: int(1_000, 86_400_000).default(1_800_000),
    WEBHOOK_TIMEOUT_MS: int(100, 60_000).default(10_000),
    // How long a delivery waits before looking again whether the earlier ones to its endpoint are settled.
    WEBHOOK_ORDER_WAIT_MS: int(10, 600_000).default(5_000),
    // Days a settled delivery stays in an endpoint's delivery log (docs/retention.md).
    WEBHOOK_DELIVERY_RETENTION_DAYS: int(1, 3650).default(30),
    META_PIXEL_ID: z
      .string()
      .regex(/^\d{5,20}$/, 'must be the numeric pixel id')
      .optional(),
    META_ACCESS_TOKEN: z.string().min(10).optional(),
    META_GRAPH_URL: z.url().default('https://graph.facebook.com'),
    META_TEST_EVENT_CODE: z.string().optional(),
    ...emailEnvShape,
    ...googleAdsEnvShape,
    META_DEFAULT_COUNTRY_CODE: z
      .string()
      .regex(/^\d{1,3}$/, 'must be a calling code such as 1')
      .default('1'),
    // Certificates for tenant custom domains (docs/certificates.md); off without ACME_DIRECTORY_URL.
    ACME_DIRECTORY_URL: z.url({ protocol: /^https$/, error: 'must be the https URL of the ACME directory' }).optional(),
    ACME_EMAIL: z.email("must be an email address for the CA's notices").optional(),
    ACME_CA_FILE: z.string().optional(),
    CERTIFICATES_POLL_MS: int(1_000, 86_400_000).default(60_000),
    PROXY_DIR: z.string().optional(),
    NGINX_BIN: z.string().default('nginx'),
    ...metricsEnvShape,
    // The worker's /metrics listener (it has no other HTTP server); 0 turns it off.
    WORKER_METRICS_PORT: int(0, 65535).default(9464),
    WORKER_METRICS_HOST: z.string().default('127.0.0.1'),
    // Custom-domain DNS check (docs/control-plane.md, "Domains and resolution").
    ...domainCheckEnvShape,
  })
  .superRefine((c, ctx) => {
    refineEmailConfig(c, ctx);
    refineGoogleAds(c, ctx);
    if (Boolean(c.META_PIXEL_ID) !== Boolean(c.META_ACCESS_TOKEN))
      ctx.addIssue({
        code: 'custom',
        path: ['META_ACCESS_TOKEN'],
        message: 'META_PIXEL_ID and META_ACCESS_TOKEN are set together or not at all',
      });
  });

export type WorkerConfig = z.infer<typeof workerEnvSchema>;

export const loadWorkerConfig = (env: EnvSource = process.env): WorkerConfig => readConfig(workerEnvSchema, env);
