/** Builds the email webhook service from the host's configuration: which provider receivers it mounts. */
import type { Db } from '@platform/db';
import {
  createPostmarkWebhookReceiver,
  createSesWebhookReceiver,
  type EmailWebhookReceiver,
} from '@platform/providers';

import type { EmailConfig } from '../email.config.js';
import { SuppressionService } from '../suppression/suppression.service.js';
import { EmailWebhookService } from './email-webhook.service.js';

/** Postmark (the primary) and SES through SNS (the secondary, named EMAIL_SECONDARY_NAME). */
export function emailWebhookReceivers(c: EmailConfig, fetchImpl: typeof fetch = fetch): EmailWebhookReceiver[] {
  const user = c.EMAIL_WEBHOOK_POSTMARK_USER;
  const password = c.EMAIL_WEBHOOK_POSTMARK_PASSWORD;
  return [
    createPostmarkWebhookReceiver({
      ...(user && password ? { basicAuth: { user, password } } : {}),
      ...(c.EMAIL_WEBHOOK_POSTMARK_HEADER ? { header: c.EMAIL_WEBHOOK_POSTMARK_HEADER } : {}),
    }),
    createSesWebhookReceiver({
      provider: c.EMAIL_SECONDARY_NAME,
      allowedTopicArns: c.EMAIL_SNS_TOPIC_ARNS.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      ...(c.EMAIL_SNS_CERT_HOST_PATTERN ? { certHostPattern: new RegExp(c.EMAIL_SNS_CERT_HOST_PATTERN) } : {}),
      allowLoopback: c.EMAIL_SNS_ALLOW_HTTP_LOOPBACK === 'on',
      fetch: fetchImpl,
    }),
  ];
}

export function composeEmailWebhooks(
  c: EmailConfig,
  db: Db,
  suppressions: SuppressionService = new SuppressionService(db),
): EmailWebhookService {
  return new EmailWebhookService(db, suppressions, emailWebhookReceivers(c));
}
