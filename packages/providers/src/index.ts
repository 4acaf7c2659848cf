/**
 * @platform/providers: adapters to outside services behind our own ports.
 * - Bot check (CaptchaVerifier): reCAPTCHA v3 siteverify adapter + local stand-in.
 * - Conversions (ConversionsSender): Meta Conversions API adapter, log driver + local stand-in.
 * - Accounting (AccountingOAuth, AccountingApi): Xero adapter + local Xero-protocol server.
 * - SMS (SmsSender, SmsWebhookReceiver): JustCall adapter, log driver + local stand-in.
 * - Team chat (ChatPoster): Google Chat incoming-webhook adapter, log driver + local receiver.
 * Local stand-ins exist only for embedded mode and tests.
 */

// Bot check
export {
  requireCaptchaPass,
  type CaptchaFailure,
  type CaptchaFailureReason,
  type CaptchaPass,
  type CaptchaVerdict,
  type CaptchaVerifier,
  type CaptchaVerifyInput,
} from './captcha/captcha.port.js';
export { hostnameAllowed, normalizeHostname } from './captcha/hostname.js';
export {
  createSiteverifyVerifier,
  DEFAULT_CAPTCHA_TIMEOUT_MS,
  DEFAULT_MIN_SCORE,
  GOOGLE_SITEVERIFY_URL,
  type SiteverifyVerifierOptions,
} from './captcha/recaptcha/siteverify.verifier.js';
export {
  createLocalSiteverify,
  InvalidMintRequestError,
  LOCAL_DEFAULT_SCORE,
  LOCAL_TOKEN_TTL_MS,
  LocalSiteverify,
  localCaptchaRoutes,
  localCaptchaScript,
  type LocalCaptchaRoutesOptions,
  type LocalSiteverifyOptions,
  type MintTokenInput,
  type SiteverifyErrorCode,
  type SiteverifyWireResponse,
} from './captcha/local/local-siteverify.js';

// Conversions
export type {
  ConversionEvent,
  ConversionsSender,
  ConversionsSendResult,
  ConversionUser,
} from './conversions/conversions.port.js';
export {
  hashEmail,
  hashName,
  hashPhone,
  normalizeEmail,
  normalizeName,
  normalizePhone,
  sha256Hex,
  toMetaUserData,
  type MetaHashingOptions,
  type MetaUserData,
} from './conversions/meta/meta-hashing.js';
export {
  ConversionsSendError,
  createMetaCapiSender,
  DEFAULT_CAPI_TIMEOUT_MS,
  META_API_VERSION,
  META_GRAPH_URL,
  META_MAX_EVENT_AGE_SECONDS,
  META_MAX_EVENTS_PER_REQUEST,
  StaleConversionEventError,
  toMetaServerEvent,
  type ConversionsErrorKind,
  type MetaCapiSenderOptions,
  type MetaEventsRequestBody,
  type MetaServerEvent,
} from './conversions/meta/meta-capi.client.js';
export {
  createLocalCapiReceiver,
  LocalCapiReceiver,
  localCapiRoutes,
  startLocalCapiReceiver,
  type CapiHandleInput,
  type CapiHandleResult,
  type GraphErrorBody,
  type LocalCapiReceiverOptions,
  type LocalCapiRoutesOptions,
  type RecordedCapiRequest,
  type RunningLocalCapiReceiver,
} from './conversions/local/local-capi.receiver.js';
export { createLogConversionsSender, type ConversionsLogger } from './conversions/log/log-conversions.sender.js';

// Accounting (Xero protocol)
export {
  AccountingError,
  isAccountingError,
  type AccountingApi,
  type AccountingAuth,
  type AccountingConnection,
  type AccountingErrorKind,
  type AccountingInvoice,
  type AccountingOAuth,
  type AccountingTokenSet,
  type AccountingWebhookBatch,
  type AccountingWebhookEvent,
  type AuthorizeUrlInput,
  type ContactInput,
  type CreatedInvoice,
  type CreateInvoiceInput,
  type ExchangeCodeInput,
  type FoundContact,
  type InvoiceAllocation,
  type InvoiceLineInput,
  type InvoicePayment,
  type InvoiceStatus,
  type LineAmountTypes,
  type RefreshInput,
  type UpsertContactInput,
} from './accounting/accounting.port.js';
export { createPkcePair, pkceChallengeS256, type PkcePair } from './accounting/pkce.js';
export {
  DEFAULT_XERO_RETRY_AFTER_SECONDS,
  DEFAULT_XERO_TIMEOUT_MS,
  parseXeroDate,
  XERO_API_URL,
  XERO_IDENTITY_URL,
  XERO_LOGIN_URL,
} from './accounting/xero/xero-http.js';
export { createXeroOAuth, type XeroOAuthOptions } from './accounting/xero/xero-oauth.js';
export { createXeroAccountingClient, type XeroAccountingClientOptions } from './accounting/xero/xero-accounting.client.js';
export {
  parseXeroWebhook,
  signXeroPayload,
  verifyXeroSignature,
  webhookEventKey,
  XERO_SIGNATURE_HEADER,
} from './accounting/xero/xero-webhook.js';
export {
  startLocalAccounting,
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
export {
  E164_DIGITS,
  MAX_SMS_BODY_LENGTH,
  SmsError,
  type SmsErrorKind,
  type SmsEvent,
  type SmsEventType,
  type SmsSender,
  type SmsSendInput,
  type SmsSendResult,
  type SmsStatus,
  type SmsMessageReader,
  type SmsProviderMessage,
  type SmsWebhookReceiver,
  type SmsWebhookRejection,
  type SmsWebhookRequest,
  type SmsWebhookResult,
} from './sms/sms.port.js';
// `normalizePhone` is taken by the Meta hashing rules above; this one is the SMS (E.164) rule.
export { normalizeInternationalDigits, normalizePhone as normalizeSmsPhone } from './sms/phone.js';
export {
  createJustCallSmsSender,
  DEFAULT_JUSTCALL_RETRY_AFTER_SECONDS,
  DEFAULT_JUSTCALL_TIMEOUT_MS,
  JUSTCALL_API_URL,
  type JustCallSmsSenderOptions,
} from './sms/justcall/justcall-sms.client.js';
export { createJustCallTextsReader, type JustCallTextsReaderOptions } from './sms/justcall/justcall-texts.client.js';
export {
  createJustCallWebhookReceiver,
  DEFAULT_JUSTCALL_REPLAY_WINDOW_SECONDS,
  formatJustCallTimestamp,
  JUSTCALL_SIGNATURE_HEADER,
  JUSTCALL_SIGNATURE_VERSION_HEADER,
  JUSTCALL_TIMESTAMP_HEADER,
  normalizeSmsStatus,
  parseJustCallEvent,
  parseJustCallTimestamp,
  signJustCall,
  verifyJustCallSignature,
  type JustCallSignatureInput,
  type JustCallWebhookReceiverOptions,
} from './sms/justcall/justcall-webhook.js';
export { createLogSmsSender, type SmsLogger } from './sms/log/log-sms.sender.js';
export {
  startLocalSms,
  type LocalSmsMessage,
  type LocalSmsOptions,
  type LocalSmsWebhook,
  type RunningLocalSms,
} from './sms/local/local-sms.server.js';

// Team chat (Google Chat incoming webhooks)
export {
  ChatPostError,
  chatSpaceOf,
  parseChatWebhookUrl,
  type ChatCard,
  type ChatCardV2,
  type ChatCardWidget,
  type ChatErrorKind,
  type ChatMessage,
  type ChatPoster,
  type ChatPostResult,
  type ParsedChatWebhookUrl,
} from './chat/chat.port.js';
export {
  createGoogleChatPoster,
  DEFAULT_CHAT_RETRY_AFTER_SECONDS,
  DEFAULT_CHAT_TIMEOUT_MS,
  GOOGLE_CHAT_ORIGIN,
  type GoogleChatPosterOptions,
} from './chat/googlechat/google-chat.poster.js';
export { createLogChatPoster, type ChatLogger } from './chat/log/log-chat.poster.js';
export {
  startLocalChat,
  type LocalChatMessage,
  type LocalChatOptions,
  type RunningLocalChat,
} from './chat/local/local-chat.server.js';

// Email: Postmark (primary), SES over SMTP (secondary), SMTP, log driver (docs/email.md)
export * from './email/index.js';
