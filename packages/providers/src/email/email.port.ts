/**
 * Email capability: our own message type and sender port, independent of any provider. Adapters:
 * Postmark's HTTP API (primary), SMTP with nodemailer (Amazon SES's SMTP interface as the secondary,
 * or any relay for the embedded default), and a log driver.
 */
import { ProviderError } from '../http/provider-error.js';

export type EmailLane = 'transactional' | 'bulk';

export interface EmailAddress {
  address: string;
  name?: string;
}

/** A file sent with the message (a quote's PDF), base64 so the message stays one JSON outbox payload. */
export interface EmailAttachment {
  filename: string;
  contentType: string;
  contentBase64: string;
}

/** Postmark's limit for a whole message is 10 MB; attachments are refused well under it. */
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;

export interface EmailMessage {
  /** Our id of the message (email_messages.id); also the stable Message-ID local part. */
  id: string;
  tenantId: string;
  /** Idempotency key of the message, unique per tenant. */
  key: string;
  lane: EmailLane;
  from: EmailAddress;
  to: EmailAddress;
  replyTo?: EmailAddress;
  subject: string;
  text: string;
  html: string;
  /** Short labels for the provider's statistics (e.g. the template name). */
  tags: string[];
  attachments?: EmailAttachment[];
  /**
   * Extra headers every adapter sends as they are: `List-Unsubscribe` and `List-Unsubscribe-Post`
   * (RFC 8058) on reminders and follow-ups.
   */
  headers?: Record<string, string>;
}

export interface EmailSendResult {
  /** Which adapter took the message (`postmark`, `ses`, `smtp`, `log`). */
  provider: string;
  providerMessageId: string;
}

/**
 * Why a provider did not take a message. `unavailable` (5xx, timeout, network) and `account`
 * (the provider refuses our account or sender, whatever the message) send the message to the
 * failover provider; `recipient_inactive` means the provider itself suppresses the address;
 * `rejected` means this message can never be sent; `rate_limited` means wait `retryAfterMs`.
 */
export type EmailFailureKind = 'unavailable' | 'account' | 'recipient_inactive' | 'rejected' | 'rate_limited';

/** A `ProviderError` of the email port; adds which adapter failed and the wait in milliseconds. */
export class EmailSendError extends ProviderError<EmailFailureKind> {
  constructor(
    kind: EmailFailureKind,
    message: string,
    readonly provider: string,
    readonly retryAfterMs?: number,
  ) {
    super(kind, message, retryAfterMs === undefined ? {} : { retryAfterSeconds: Math.ceil(retryAfterMs / 1000) });
    this.name = 'EmailSendError';
  }
}

export interface EmailSender {
  readonly name: string;
  send(message: EmailMessage): Promise<EmailSendResult>;
  close?(): Promise<void>;
}

/** Bounce and complaint events, normalised from either provider's webhook. */
export interface EmailFeedbackEvent {
  kind: 'hard_bounce' | 'soft_bounce' | 'complaint' | 'other';
  email: string;
  provider: string;
  /** The provider's id of the event (dedupe). */
  eventId: string;
  /** The provider's id of the message it is about (looked up in email_messages). */
  providerMessageId: string | undefined;
  /** Our tenant id when the provider echoed it back (Postmark Metadata, SES tags). */
  tenantHint: string | undefined;
  /** The provider says the address is inactive (Postmark `Inactive`). */
  inactive: boolean;
  detail: Record<string, unknown>;
}

/** Standard formatting of a display name and address for headers. */
export function formatAddress(a: EmailAddress): string {
  if (!a.name) return a.address;
  return `"${a.name.replace(/["\\\r\n]/g, '')}" <${a.address}>`;
}

/** Stable Message-ID of our message: a resend of the same message carries the same id. */
export const messageIdHeader = (m: EmailMessage, domain: string): string => `<${m.id}@${domain}>`;

/**
 * A provider's record of a sending domain (Postmark's Domains API): the provider signs the mail it
 * sends with its own DKIM key, so the tenant publishes the provider's DKIM record too.
 */
export interface ProviderDomain {
  provider: string;
  id: string;
  dkimHost: string;
  dkimValue: string;
  returnPathDomain: string;
  returnPathCname: string;
}

export interface SendingDomainRegistry {
  readonly name: string;
  register(domain: string, returnPathDomain: string): Promise<ProviderDomain>;
  /** Asks the provider to check DNS; answers what it found. */
  verify(id: string): Promise<{ dkim: boolean; returnPath: boolean }>;
  remove(id: string): Promise<void>;
}

/** A provider's bounce or complaint webhook as it arrived. */
export interface EmailWebhookRequest {
  headers: Record<string, string | string[] | undefined>;
  /** The body as text, decoded by its declared charset (signatures cover the exact text). */
  body: string;
}

/**
 * Why a webhook was refused; nothing is applied. `unauthenticated`: no valid credential or signature;
 * `malformed`: authenticated, but not a feedback event; `confirmation_failed`: a subscription
 * handshake the provider will send again.
 */
export type EmailWebhookRejection = 'unauthenticated' | 'malformed' | 'confirmation_failed';

export type EmailWebhookResult =
  /** Authenticated: its feedback events (none for a handshake); `confirmed` when it confirmed a subscription. */
  | { ok: true; events: EmailFeedbackEvent[]; confirmed?: true }
  | { ok: false; reason: EmailWebhookRejection; detail: string };

/** One provider's bounce and complaint webhook: authenticates the request and normalises its events. */
export interface EmailWebhookReceiver {
  /** The last segment of the webhook URL registered with the provider (`/email/webhook/<route>`). */
  readonly route: string;
  /** The sending adapter whose message ids the events carry (`email_messages.provider`). */
  readonly provider: string;
  receive(request: EmailWebhookRequest): Promise<EmailWebhookResult>;
}
