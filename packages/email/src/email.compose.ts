/**
 * Composition of the email capability from its configuration: the primary (Postmark when a token
 * is set, else SMTP when EMAIL_SMTP_URL is set, else the log driver), the secondary (SES's SMTP
 * interface or any SMTP relay), the failover sender, suppression list, outbox and delivery.
 */
import type { Db } from '@platform/db';
import {
  createLogEmailSender,
  createPostmarkSender,
  createSmtpSender,
  type EmailSender,
  type SmtpOptions,
} from '@platform/providers';
import type { SecretBox } from '@platform/secrets';

import { EmailDeliveryService } from './delivery/email-delivery.service.js';
import { FailoverSender } from './delivery/failover.sender.js';
import { dkimKeys } from './domains/dkim-keys.js';
import type { EmailConfig } from './email.config.js';
import { EmailOutboxService } from './email-outbox.service.js';
import { SuppressionService } from './suppression/suppression.service.js';

type SmtpDkim = NonNullable<SmtpOptions['dkimFor']>;
type Logger = { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };

export function createPrimarySender(c: EmailConfig, logger: Logger, dkimFor?: SmtpDkim): EmailSender {
  if (c.POSTMARK_SERVER_TOKEN)
    return createPostmarkSender({
      serverToken: c.POSTMARK_SERVER_TOKEN,
      baseUrl: c.POSTMARK_API_URL,
      timeoutMs: c.EMAIL_TIMEOUT_MS,
      bulkStream: c.POSTMARK_BULK_STREAM,
    });
  if (c.EMAIL_SMTP_URL)
    return createSmtpSender({
      name: 'smtp',
      url: c.EMAIL_SMTP_URL,
      messageIdDomain: c.EMAIL_PLATFORM_DOMAIN,
      timeoutMs: c.EMAIL_TIMEOUT_MS,
      requireTls: c.EMAIL_SMTP_REQUIRE_TLS === 'on',
      ...(dkimFor ? { dkimFor } : {}),
    });
  return createLogEmailSender(logger);
}

export function createSecondarySender(c: EmailConfig, dkimFor?: SmtpDkim): EmailSender | undefined {
  if (!c.EMAIL_SECONDARY_SMTP_URL) return undefined;
  return createSmtpSender({
    name: c.EMAIL_SECONDARY_NAME,
    url: c.EMAIL_SECONDARY_SMTP_URL,
    ...(c.EMAIL_SECONDARY_SMTP_USER && c.EMAIL_SECONDARY_SMTP_PASSWORD
      ? { auth: { user: c.EMAIL_SECONDARY_SMTP_USER, pass: c.EMAIL_SECONDARY_SMTP_PASSWORD } }
      : {}),
    messageIdDomain: c.EMAIL_PLATFORM_DOMAIN,
    ...(c.EMAIL_SES_CONFIGURATION_SET ? { sesConfigurationSet: c.EMAIL_SES_CONFIGURATION_SET } : {}),
    timeoutMs: c.EMAIL_TIMEOUT_MS,
    requireTls: c.EMAIL_SMTP_REQUIRE_TLS === 'on',
    ...(dkimFor ? { dkimFor } : {}),
  });
}

export interface EmailServices {
  outbox: EmailOutboxService;
  suppressions: SuppressionService;
  senders: FailoverSender;
  delivery: EmailDeliveryService;
  close(): Promise<void>;
}

export function composeEmail(
  c: EmailConfig,
  db: Db,
  logger: Logger,
  opts: { onQueued?: () => void; primary?: EmailSender; secondary?: EmailSender; box?: SecretBox } = {},
): EmailServices {
  // Tenant domains' DKIM keys sign what goes out over SMTP (SES BYODKIM, the embedded relay).
  const dkim = opts.box ? dkimKeys(db, opts.box) : undefined;
  const suppressions = new SuppressionService(db);
  const senders = new FailoverSender(
    opts.primary ?? createPrimarySender(c, logger, dkim),
    opts.secondary ?? createSecondarySender(c, dkim),
    {
      failures: c.EMAIL_BREAKER_FAILURES,
      resetMs: c.EMAIL_BREAKER_RESET_MS,
      logger,
    },
  );
  return {
    outbox: new EmailOutboxService(
      db,
      {
        domain: c.EMAIL_PLATFORM_DOMAIN,
        fromName: c.EMAIL_PLATFORM_FROM_NAME,
        ...(c.EMAIL_UNSUBSCRIBE_BASE_URL ? { unsubscribeBaseUrl: c.EMAIL_UNSUBSCRIBE_BASE_URL } : {}),
      },
      opts.onQueued,
    ),
    suppressions,
    senders,
    delivery: new EmailDeliveryService(db, senders, suppressions),
    close: () => senders.close(),
  };
}
