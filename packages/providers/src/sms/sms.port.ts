/**
 * SMS capability: our own types, independent of any provider. Phone numbers are E.164 digits
 * WITHOUT the leading `+` (`16505551212`), the format of the ERP's "SMS phone line" records;
 * use `normalizePhone` (sms/phone.ts) to get there from user input.
 *
 * Outbound: `SmsSender.send`. Inbound: the provider's webhooks go through an
 * `SmsWebhookReceiver`, which verifies the signature and timestamp and normalises the event.
 * Webhook bodies are not signed by every provider (JustCall signs only URL, type and time), so
 * dedupe on `eventId`, and re-fetch from the provider when a decision depends on the content.
 */
import { ProviderError } from '../http/provider-error.js';

export interface SmsSendInput {
  /** Our line's number, E.164 digits without `+`. */
  from: string;
  /** The contact's number, E.164 digits without `+`. */
  to: string;
  /** 1..1600 characters. */
  body: string;
}

export type SmsStatus = 'queued' | 'sent' | 'delivered' | 'undelivered' | 'failed' | 'received' | 'unknown';

export interface SmsSendResult {
  providerMessageId: string;
  status: SmsStatus;
}

export interface SmsSender {
  send(input: SmsSendInput): Promise<SmsSendResult>;
}

/** A message as the provider has it (read back by id: webhook bodies are notices, not facts). */
export interface SmsProviderMessage {
  providerMessageId: string;
  direction: 'inbound' | 'outbound';
  /** Our line, E.164 digits without `+`. */
  line: string;
  /** The other party, E.164 digits without `+`. */
  contact: string;
  body: string;
  status: SmsStatus;
  /** When the provider recorded it (undefined when it does not say). */
  createdAt: Date | undefined;
}

export interface SmsMessageReader {
  /** The message with that id, or null when the provider has no such message. Errors are `SmsError`. */
  getMessage(providerMessageId: string): Promise<SmsProviderMessage | null>;
}

export type SmsEventType = 'sms.received' | 'sms.sent' | 'sms.delivered';

export interface SmsEvent {
  type: SmsEventType;
  /** The provider's id of this webhook request (JustCall `request_id`): the dedupe key. */
  eventId: string;
  providerMessageId: string;
  /** Our line, E.164 digits without `+`. */
  line: string;
  lineName: string | undefined;
  /** The other party, E.164 digits without `+`. */
  contact: string;
  body: string;
  occurredAt: Date;
  /** Delivery status where the event carries one (`sms.delivered`, `sms.sent`). */
  status?: SmsStatus;
  /** The parsed body as received, for audit; treat as untrusted. */
  raw: unknown;
}

export interface SmsWebhookRequest {
  headers: Record<string, string | string[] | undefined>;
  /** The body exactly as received. */
  rawBody: Buffer | string;
}

export type SmsWebhookRejection = 'missing_signature' | 'bad_signature' | 'stale_timestamp' | 'malformed';

export type SmsWebhookResult =
  /** Verified SMS event; `signature` is the one it came with (for a replay cache). */
  | { ok: true; event: SmsEvent; signature: string; signedAt: Date }
  /** Verified, but not an SMS event we handle (e.g. `call.completed`): acknowledge and ignore. */
  | { ok: true; event: null; type: string; signature: string; signedAt: Date }
  /** Answer 401 (signature/timestamp) or 400 (malformed); never act on it. */
  | { ok: false; reason: SmsWebhookRejection };

export interface SmsWebhookReceiver {
  receive(request: SmsWebhookRequest): SmsWebhookResult;
}

export type SmsErrorKind =
  | 'invalid_input' // refused before sending (bad number, empty or too long body)
  | 'unauthorized' // wrong API key/secret
  | 'rejected' // the provider refused the message (4xx)
  | 'rate_limited' // 429: retry after `retryAfterSeconds`
  | 'http' // other status (5xx…)
  | 'network'
  | 'timeout'
  | 'format';

/**
 * A `ProviderError` of the SMS port. Careful with `retryable` on `timeout`: the message may have
 * gone out, so a retry can text the customer twice (providers offer no idempotency key for sends).
 */
export class SmsError extends ProviderError<SmsErrorKind> {
  constructor(kind: SmsErrorKind, message: string, opts: { status?: number; retryAfterSeconds?: number } = {}) {
    super(kind, message, opts);
    this.name = 'SmsError';
  }
}

export const MAX_SMS_BODY_LENGTH = 1600;
/** E.164 allows at most 15 digits; 8 is a practical floor. */
export const E164_DIGITS = /^[1-9]\d{7,14}$/;

/** A tenant's provider credentials, as the settings hold them. */
export interface SmsCredentials {
  apiKey: string;
  apiSecret: string;
}

/** How a tenant's webhooks are checked: its signing secrets (current first) and our URL as registered. */
export interface SmsWebhookTrust {
  secrets: string[];
  webhookUrl: string;
}

/**
 * One SMS provider's adapters, built per tenant from its settings. Composition roots pick the
 * provider; services only see this.
 */
export interface SmsAdapters {
  sender(credentials: SmsCredentials): SmsSender;
  reader(credentials: SmsCredentials): SmsMessageReader;
  receiver(trust: SmsWebhookTrust): SmsWebhookReceiver;
  /** Timestamps older than this are refused by the receiver (sizes replay caches). */
  readonly replayWindowSeconds: number;
}
