/**
 * @platform/providers: adapters to outside services behind our own ports.
 * - Bot check (CaptchaVerifier): reCAPTCHA v3 siteverify adapter + local stand-in.
 * - Conversions (ConversionsSender): Meta Conversions API adapter, log driver + local stand-in.
 * - Accounting (AccountingOAuth, AccountingApi): Xero adapter + local Xero-protocol server.
 * - SMS (SmsSender, SmsWebhookReceiver): JustCall adapter, log driver + local stand-in.
 * - Team chat (ChatPoster): Google Chat incoming-webhook adapter, log driver + local receiver.
 * - Payments (PaymentsApi, PaymentWebhookVerifier): Stripe adapter (official SDK, Connect) + local stand-in.
 * Production code imports from here: ports, real adapters, the shared error and HTTP call.
 * The local stand-ins (servers speaking each provider's protocol) and the request signers that
 * play the provider's side are in `@platform/providers/local`, for tests and the embedded default.
 */

// One provider error and one HTTP call for every adapter
export {
  isProviderError,
  ProviderError,
  type ProviderErrorKind,
  type ProviderErrorOptions,
} from './http/provider-error.js';
export {
  jsonObject,
  providerFetch,
  retryAfterSeconds,
  statusKind,
  type ProviderRequest,
  type ProviderResponse,
} from './http/provider-http.js';

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
export { hostnameAllowed, isHostnameAllowListEntry, normalizeHostname } from './captcha/hostname.js';
export {
  createSiteverifyVerifier,
  DEFAULT_CAPTCHA_TIMEOUT_MS,
  DEFAULT_MIN_SCORE,
  GOOGLE_SITEVERIFY_URL,
  type SiteverifyVerifierOptions,
} from './captcha/recaptcha/siteverify.verifier.js';

// Conversions
export {
  ConversionsSendError,
  StaleConversionEventError,
  type ConversionEvent,
  type ConversionsErrorKind,
  type ConversionsSender,
  type ConversionsSendResult,
  type ConversionUser,
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
  createMetaCapiSender,
  DEFAULT_CAPI_TIMEOUT_MS,
  META_API_VERSION,
  META_GRAPH_URL,
  META_MAX_EVENT_AGE_SECONDS,
  META_MAX_EVENTS_PER_REQUEST,
  toMetaServerEvent,
  type MetaCapiSenderOptions,
  type MetaEventsRequestBody,
  type MetaServerEvent,
} from './conversions/meta/meta-capi.client.js';
export { createLogConversionsSender, type ConversionsLogger } from './conversions/log/log-conversions.sender.js';
export {
  OfflineConversionsError,
  type OfflineClickConversion,
  type OfflineConversionRejection,
  type OfflineConversionsErrorKind,
  type OfflineConversionsResult,
  type OfflineConversionsSender,
} from './conversions/offline-conversions.port.js';
export {
  createGoogleAdsConversionsSender,
  GOOGLE_ADS_API_URL,
  GOOGLE_ADS_API_VERSION,
  googleAdsDateTime,
  type GoogleAdsConversionsOptions,
  type GoogleClickConversion,
} from './conversions/google/google-ads-conversions.client.js';

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
  type AccountingTaxRate,
  type AccountingAdapters,
  type AccountingTokenSet,
  type AccountingWebhookBatch,
  type AccountingWebhookEvent,
  type AccountingWebhookRequest,
  type AccountingWebhookVerifier,
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
  webhookEventKey,
} from './accounting/accounting.port.js';
export type {
  AccountingCreditNote,
  CreateCreditNoteInput,
  CreatedPayment,
  CreatePaymentInput,
  CreditNoteAllocation,
} from './accounting/accounting-money.types.js';
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
export {
  createXeroAccountingClient,
  type XeroAccountingClientOptions,
} from './accounting/xero/xero-accounting.client.js';
export {
  parseXeroWebhook,
  verifyXeroSignature,
  XERO_SIGNATURE_HEADER,
  xeroWebhookVerifier,
} from './accounting/xero/xero-webhook.js';
export { xeroAccountingAdapters, xeroAccountingAdaptersOf } from './accounting/xero/xero-adapters.js';

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
  type SmsAdapters,
  type SmsCredentials,
  type SmsWebhookTrust,
} from './sms/sms.port.js';
export { justCallSmsAdapters } from './sms/justcall/justcall-adapters.js';
// `normalizePhone` is taken by the Meta hashing rules above; this one is the SMS (E.164) rule.
export { isSamePhone, normalizeInternationalDigits, normalizePhone as normalizeSmsPhone } from './sms/phone.js';
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
  JUSTCALL_SIGNATURE_HEADER,
  JUSTCALL_SIGNATURE_VERSION_HEADER,
  JUSTCALL_TIMESTAMP_HEADER,
  normalizeSmsStatus,
  parseJustCallEvent,
  parseJustCallTimestamp,
  verifyJustCallSignature,
  type JustCallSignatureInput,
  type JustCallWebhookReceiverOptions,
} from './sms/justcall/justcall-webhook.js';
export { createLogSmsSender, type SmsLogger } from './sms/log/log-sms.sender.js';

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

// Email: Postmark (primary), SES over SMTP (secondary), SMTP, log driver (docs/email.md)
export * from './email/index.js';

// Payments (Stripe, Connect: each tenant its own merchant; docs/payments.md)
export {
  isPaymentsError,
  PaymentsError,
  type CheckoutInput,
  type CheckoutSession,
  type ConnectedAccount,
  type CreateAccountInput,
  type ListCompletedInput,
  type Money,
  type OnboardingLink,
  type OnboardingLinkInput,
  type PaymentDetails,
  type PaymentEvent,
  type PaymentEventEnvelope,
  type PaymentIntentStatus,
  type PaymentKind,
  type PaymentMetadata,
  type PaymentsAdapters,
  type PaymentsApi,
  type PaymentsErrorKind,
  type PaymentStatus,
  type PaymentWebhookRejection,
  type PaymentWebhookRequest,
  type PaymentWebhookResult,
  type PaymentWebhookVerifier,
  type Refund,
  type RefundInput,
  type RefundNotice,
  type SessionStatus,
} from './payments/payments.port.js';
export {
  createStripePayments,
  DEFAULT_STRIPE_TIMEOUT_MS,
  stripePaymentsAdapters,
  type StripePaymentsOptions,
} from './payments/stripe/stripe-payments.client.js';
export {
  parseStripeEvent,
  STRIPE_SIGNATURE_HEADER,
  STRIPE_WEBHOOK_TOLERANCE_SECONDS,
  stripeWebhookVerifier,
} from './payments/stripe/stripe-webhook.js';
