/**
 * @platform/providers: adapters to outside services behind our own ports.
 * - Bot check (CaptchaVerifier): reCAPTCHA v3 siteverify adapter + local stand-in.
 * - Conversions (ConversionsSender): Meta Conversions API adapter, log driver + local stand-in.
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
