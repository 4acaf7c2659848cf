/**
 * Email environment (docs/email.md): one zod shape spread into each app's config module (ERP host,
 * worker), so every service validates it at start-up. This module never reads process.env itself
 * except in `loadEmailConfig`, used by the email CLI.
 */
import { type EnvSource, readConfig } from '@platform/kernel';
import { z } from 'zod';

const int = (min: number, max: number) =>
  z.coerce.number().int('must be an integer').min(min, `must be at least ${min}`).max(max, `must be at most ${max}`);
const onOff = z.enum(['on', 'off'], 'must be on or off');
const smtpUrl = z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' });

export const emailEnvShape = {
  /** Postmark server token: with it Postmark is the primary provider. */
  POSTMARK_SERVER_TOKEN: z.string().min(8, 'must be the Postmark server API token').optional(),
  /** Postmark account token: sending domains are registered through Postmark's Domains API. */
  POSTMARK_ACCOUNT_TOKEN: z.string().min(8, 'must be the Postmark account API token').optional(),
  POSTMARK_API_URL: z
    .url({ protocol: /^https?$/, error: 'must be the http(s) base URL of the Postmark API' })
    .default('https://api.postmarkapp.com'),
  POSTMARK_BULK_STREAM: z
    .string()
    .regex(/^[a-z0-9-]{1,64}$/, 'must be a Postmark message stream id')
    .default('broadcast'),
  /** Secondary (bulk and failover) provider over SMTP: Amazon SES's SMTP endpoint in production. */
  EMAIL_SECONDARY_SMTP_URL: smtpUrl.optional(),
  EMAIL_SECONDARY_SMTP_USER: z.string().optional(),
  EMAIL_SECONDARY_SMTP_PASSWORD: z.string().optional(),
  EMAIL_SECONDARY_NAME: z
    .string()
    .regex(/^[a-z0-9-]{1,32}$/)
    .default('ses'),
  EMAIL_SES_CONFIGURATION_SET: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be an SES configuration set name')
    .optional(),
  /** Without Postmark: the embedded default's real SMTP path (else the log driver). */
  EMAIL_SMTP_URL: smtpUrl.optional(),
  EMAIL_SMTP_REQUIRE_TLS: onOff.default('off'),
  EMAIL_TIMEOUT_MS: int(500, 120_000).default(10_000),
  /** The platform's own sending domain, used by tenants without a verified domain. */
  EMAIL_PLATFORM_DOMAIN: z
    .string()
    .regex(/^[a-z0-9.-]+\.[a-z]{2,}$|^localhost$/, 'must be a domain name')
    .default('localhost'),
  EMAIL_PLATFORM_FROM_NAME: z.string().max(100).default('Window Platform'),
  /** Public base URL of the host serving POST /email/unsubscribe/<token> (else https://EMAIL_PLATFORM_DOMAIN). */
  EMAIL_UNSUBSCRIBE_BASE_URL: z
    .url({ protocol: /^https?$/, error: 'must be the http(s) base URL of the unsubscribe host' })
    .optional(),
  /** Sending domains on the primary's plan (Postmark/Resend plan: 10). */
  EMAIL_DOMAIN_LIMIT: int(1, 100_000).default(10),
  EMAIL_SPF_INCLUDE: z.string().default('spf.mtasv.net'),
  EMAIL_RETURN_PATH_TARGET: z.string().default('pm.mtasv.net'),
  /** DNS servers for domain verification (host or host:port, comma-separated); else the system's. */
  EMAIL_DNS_SERVERS: z.string().optional(),
  /** How often the worker re-verifies sending domains' DNS (0 turns it off). */
  EMAIL_DOMAIN_CHECK_MS: int(0, 7 * 86_400_000).default(6 * 3_600_000),
  EMAIL_BREAKER_FAILURES: int(1, 1000).default(5),
  EMAIL_BREAKER_RESET_MS: int(100, 3_600_000).default(30_000),
  /** Postmark webhooks: basic auth in the webhook URL and/or a custom header `Name: value`. */
  EMAIL_WEBHOOK_POSTMARK_USER: z.string().optional(),
  EMAIL_WEBHOOK_POSTMARK_PASSWORD: z.string().min(16, 'must be at least 16 characters').optional(),
  EMAIL_WEBHOOK_POSTMARK_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]+:\s*\S{16,}$/, 'must be `Header-Name: value` with a value of 16+ characters')
    .optional(),
  /** SES through SNS: the topic ARNs we subscribed (comma-separated); others are refused. */
  EMAIL_SNS_TOPIC_ARNS: z.string().default(''),
  EMAIL_SNS_CERT_HOST_PATTERN: z.string().optional(),
  EMAIL_SNS_ALLOW_HTTP_LOOPBACK: onOff.default('off'),
};

export const emailEnvSchema = z.object(emailEnvShape);
export type EmailConfig = z.infer<typeof emailEnvSchema>;

/** Cross-field rules; call from the app schema's superRefine. */
export function refineEmailConfig(c: EmailConfig, ctx: z.RefinementCtx): void {
  if (Boolean(c.EMAIL_WEBHOOK_POSTMARK_USER) !== Boolean(c.EMAIL_WEBHOOK_POSTMARK_PASSWORD))
    ctx.addIssue({
      code: 'custom',
      path: ['EMAIL_WEBHOOK_POSTMARK_PASSWORD'],
      message: 'EMAIL_WEBHOOK_POSTMARK_USER and _PASSWORD are set together',
    });
  if (c.EMAIL_SNS_CERT_HOST_PATTERN) {
    try {
      new RegExp(c.EMAIL_SNS_CERT_HOST_PATTERN);
    } catch {
      ctx.addIssue({ code: 'custom', path: ['EMAIL_SNS_CERT_HOST_PATTERN'], message: 'must be a regular expression' });
    }
  }
}

export const loadEmailConfig = (env: EnvSource): EmailConfig =>
  readConfig(emailEnvSchema.superRefine(refineEmailConfig), env);

/** The defaults, for tests and tools that build a config object in code. */
export const emailConfigDefaults = (overrides: Partial<EmailConfig> = {}): EmailConfig => ({
  ...emailEnvSchema.parse({}),
  ...overrides,
});
