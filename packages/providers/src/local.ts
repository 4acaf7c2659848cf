/**
 * @platform/providers/local: the providers' side, for tests and the embedded default only.
 * Small servers that honour each provider's documented protocol (reCAPTCHA siteverify, Meta
 * Conversions API, Xero, JustCall, Google Chat, Postmark, SNS, Stripe) and the signers that sign requests
 * as the provider does. Production code imports `@platform/providers` instead.
 */

// Bot check
export {
  createLocalSiteverify,
  InvalidMintRequestError,
  LOCAL_DEFAULT_SCORE,
  LOCAL_TOKEN_TTL_MS,
  LocalSiteverify,
  type LocalSiteverifyOptions,
  type MintTokenInput,
  type SiteverifyErrorCode,
  type SiteverifyWireResponse,
} from './captcha/local/local-siteverify.js';
export {
  createEmbeddedBotCheck,
  type EmbeddedBotCheck,
  type EmbeddedBotCheckOptions,
  LOCAL_SITE_KEY,
} from './captcha/local/embedded-bot-check.js';
export {
  localCaptchaRoutes,
  localCaptchaScript,
  type LocalCaptchaRoutesOptions,
} from './captcha/local/local-captcha.routes.js';

// Conversions
export {
  createLocalCapiReceiver,
  LocalCapiReceiver,
  type CapiHandleInput,
  type CapiHandleResult,
  type GraphErrorBody,
  type LocalCapiReceiverOptions,
  type RecordedCapiRequest,
} from './conversions/local/local-capi.receiver.js';
export {
  localCapiRoutes,
  startLocalCapiReceiver,
  type LocalCapiRoutesOptions,
  type RunningLocalCapiReceiver,
} from './conversions/local/local-capi.server.js';
export {
  startLocalGoogleAds,
  type LocalGoogleAdsOptions,
  type RecordedUpload as RecordedGoogleAdsUpload,
  type RunningLocalGoogleAds,
} from './conversions/google/local-google-ads.server.js';

// Accounting (Xero protocol)
export { signXeroPayload } from './accounting/xero/xero-webhook.js';
export {
  startLocalAccounting,
  type LocalAccountingApp,
  type LocalAccountingOptions,
  type RecordedAccountingRequest,
  type RunningLocalAccounting,
} from './accounting/local/local-accounting.server.js';
export type {
  IntentToReceiveResult,
  WebhookAttempt as AccountingWebhookAttempt,
  WebhookDelivery as AccountingWebhookDelivery,
} from './accounting/local/local-accounting.webhooks.js';

// SMS (JustCall protocol)
export { formatJustCallTimestamp, signJustCall } from './sms/justcall/justcall-webhook.js';
export {
  startLocalSms,
  type LocalSmsAccount,
  type LocalSmsMessage,
  type LocalSmsOptions,
  type LocalSmsWebhook,
  type RunningLocalSms,
} from './sms/local/local-sms.server.js';

// Team chat (Google Chat incoming webhooks)
export {
  startLocalChat,
  type LocalChatMessage,
  type LocalChatOptions,
  type RunningLocalChat,
} from './chat/local/local-chat.server.js';

// Email (Postmark, SES through SNS)
export {
  postmarkBounceBody,
  startLocalPostmark,
  type LocalPostmarkSent,
  type RunningLocalPostmark,
} from './email/local/local-postmark.server.js';
export { startLocalSns, type RunningLocalSns } from './email/local/local-sns.signer.js';
export {
  type LocalMailMessage,
  type LocalMailOptions,
  type RunningLocalMail,
  startLocalMail,
} from './email/local/local-mail.server.js';
export { arrivalWaiters } from './email/local/arrival-waiters.js';

// Payments (Stripe protocol)
export { signStripePayload } from './payments/stripe/stripe-webhook.js';
export {
  startLocalStripe,
  TEST_CARDS,
  type LocalStripeDelivery,
  type LocalStripeOptions,
  type LocalWebhookEndpoint,
  type RunningLocalStripe,
} from './payments/local/local-stripe.server.js';
