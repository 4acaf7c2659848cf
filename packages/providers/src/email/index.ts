// Email (docs/email.md). The local stand-ins (Postmark, SNS signer) are in `@platform/providers/local`.
export * from './email.port.js';
export { createPostmarkSender, type PostmarkOptions } from './postmark/postmark-email.sender.js';
export { createPostmarkDomains, type PostmarkDomainsOptions } from './postmark/postmark-domains.client.js';
export {
  createPostmarkWebhookReceiver,
  parsePostmarkWebhook,
  type PostmarkWebhookOptions,
} from './postmark/postmark-webhook.js';
export { createSmtpSender, type SmtpOptions, type DkimKey } from './smtp/smtp-email.sender.js';
export { createLogEmailSender } from './log/log-email.sender.js';
export {
  SnsVerifier,
  snsStringToSign,
  AWS_SNS_CERT_HOST,
  type SnsEnvelope,
  type SnsRejection,
  type SnsVerifierOptions,
} from './sns/sns-signature.js';
export { parseSesNotification } from './sns/ses-notification.js';
export { createSesWebhookReceiver, type SesWebhookOptions } from './sns/ses-webhook.receiver.js';
