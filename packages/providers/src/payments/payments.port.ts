/**
 * Payments capability in platform terms: amounts in integer minor units with an ISO 4217 currency
 * (upper case, `USD`), our own metadata, one connected account per tenant (each tenant is its own
 * merchant; every call after onboarding is made ON that account, so no tenant can reach another's
 * money). Card data never reaches us: customers pay on the provider's hosted page.
 * Webhook bodies are facts signed by the provider, but they arrive late, twice or out of order:
 * dedupe on `eventId`, and re-read the session when a decision depends on its state.
 */
import { ProviderError } from '../http/provider-error.js';

export interface Money {
  /** Integer minor units (cents); zero-decimal currencies count whole units. */
  amountMinor: number;
  /** ISO 4217, upper case (`USD`, `CAD`, `GBP`, `AUD`, `EUR`). */
  currency: string;
}

export type PaymentKind = 'deposit' | 'invoice';

/** What the platform writes on every checkout, and reads back from every event about it. */
export interface PaymentMetadata {
  tenantId: string;
  kind: PaymentKind;
  /** Our record the money is for (quote, invoice). */
  ref: string;
}

export interface ConnectedAccount {
  accountId: string;
  chargesEnabled: boolean;
  detailsSubmitted: boolean;
  payoutsEnabled: boolean;
  /** The name customers see on the hosted page, once the tenant told the provider. */
  businessName: string | undefined;
}

export interface CreateAccountInput {
  tenantId: string;
  /** `express`: the platform is liable and hosts less; `standard`: the tenant's own full account. */
  type: 'express' | 'standard';
  country?: string;
  email?: string;
}

export interface OnboardingLinkInput {
  accountId: string;
  /** Where the provider sends the owner when the link expired or was used: mint a new one there. */
  refreshUrl: string;
  returnUrl: string;
}

export interface OnboardingLink {
  url: string;
  expiresAt: Date;
}

export interface CheckoutInput extends Money {
  accountId: string;
  /** The one line the customer sees (`Deposit for quote Q-0042`). */
  description: string;
  metadata: PaymentMetadata;
  /** May hold `{CHECKOUT_SESSION_ID}`, which the provider replaces. */
  successUrl: string;
  cancelUrl: string;
  customerEmail?: string;
  /** The caller's key: the same key with the same input returns the same session. */
  idempotencyKey: string;
}

export type SessionStatus = 'open' | 'complete' | 'expired';
export type PaymentStatus = 'paid' | 'unpaid' | 'no_payment_required';

export interface CheckoutSession extends Money {
  sessionId: string;
  accountId: string;
  /** The hosted page to send the customer to (null once complete or expired). */
  url: string | null;
  status: SessionStatus;
  paymentStatus: PaymentStatus;
  paymentIntentId: string | null;
  /** Null when the session was not made by the platform (no or partial metadata). */
  metadata: PaymentMetadata | null;
  createdAt: Date;
}

export type PaymentIntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'canceled'
  | 'succeeded';

export interface PaymentDetails extends Money {
  paymentIntentId: string;
  accountId: string;
  status: PaymentIntentStatus;
  /** Of the successful charge, when there is one. */
  chargeId: string | null;
  amountReceivedMinor: number;
  amountRefundedMinor: number;
  card: { brand: string; last4: string } | null;
  /** A message to show the customer when the last attempt failed. */
  lastError: string | null;
  metadata: PaymentMetadata | null;
}

export interface RefundInput {
  accountId: string;
  paymentIntentId: string;
  /** Omit for the whole (remaining) amount. */
  amountMinor?: number;
  reason?: 'requested_by_customer' | 'duplicate' | 'fraudulent';
  /** Our credit note, kept on the refund. */
  ref?: string;
  idempotencyKey: string;
}

export interface Refund extends Money {
  refundId: string;
  paymentIntentId: string;
  status: 'pending' | 'succeeded' | 'failed' | 'canceled' | 'requires_action';
}

/** A refund as the provider announces it (`refund.created`), whoever made it: the platform or the dashboard. */
export interface RefundNotice extends Refund {
  accountId: string;
  chargeId: string | null;
  /** The `ref` the platform kept on its own refunds; null on one made elsewhere (the dashboard). */
  ref: string | null;
}

export interface ListCompletedInput {
  accountId: string;
  /** Sessions created at or after this instant. */
  since: Date;
  /** At most this many, newest first (default 100). */
  limit?: number;
}

export interface PaymentsApi {
  createAccount(input: CreateAccountInput): Promise<ConnectedAccount>;
  getAccount(accountId: string): Promise<ConnectedAccount>;
  createOnboardingLink(input: OnboardingLinkInput): Promise<OnboardingLink>;
  createCheckout(input: CheckoutInput): Promise<CheckoutSession>;
  /** Null when the account has no such session. */
  getCheckout(accountId: string, sessionId: string): Promise<CheckoutSession | null>;
  getPayment(accountId: string, paymentIntentId: string): Promise<PaymentDetails | null>;
  /** Completed sessions since `since`: what a lost webhook would have told. */
  listCompletedCheckouts(input: ListCompletedInput): Promise<CheckoutSession[]>;
  refund(input: RefundInput): Promise<Refund>;
}

export type PaymentEvent =
  | { type: 'checkout.session.completed'; session: CheckoutSession }
  | { type: 'payment_intent.payment_failed'; payment: PaymentDetails }
  | {
      type: 'charge.refunded';
      paymentIntentId: string | null;
      chargeId: string;
      amountRefundedMinor: number;
      currency: string;
      metadata: PaymentMetadata | null;
    }
  | { type: 'refund.created'; refund: RefundNotice }
  | { type: 'account.updated'; account: ConnectedAccount };

export interface PaymentEventEnvelope {
  /** The provider's event id: the dedupe key. */
  eventId: string;
  /** The connected account it happened on (null for the platform's own). */
  accountId: string | null;
  createdAt: Date;
  livemode: boolean;
  /** Null for an event type the platform does not handle (acknowledge and ignore). */
  event: PaymentEvent | null;
  /** The provider's type, also for ignored events. */
  type: string;
}

export interface PaymentWebhookRequest {
  headers: Record<string, string | string[] | undefined>;
  /** The body exactly as received (never re-serialised). */
  rawBody: Buffer | string;
}

export type PaymentWebhookRejection = 'missing_signature' | 'bad_signature' | 'stale_timestamp' | 'malformed';

export type PaymentWebhookResult =
  | { ok: true; envelope: PaymentEventEnvelope }
  /** Answer 400; never act on it. */
  | { ok: false; reason: PaymentWebhookRejection };

export interface PaymentWebhookVerifier {
  verify(request: PaymentWebhookRequest): PaymentWebhookResult;
}

export type PaymentsErrorKind =
  | 'invalid_input'
  | 'unauthorized'
  | 'not_found'
  | 'card_declined'
  | 'idempotency_conflict' // the key was used with other parameters
  | 'rejected'
  | 'rate_limited'
  | 'http'
  | 'network'
  | 'timeout'
  | 'format';

export class PaymentsError extends ProviderError<PaymentsErrorKind> {
  /** The provider's code (`resource_missing`, `amount_too_small`) and the field it names. */
  readonly code: string | undefined;
  readonly param: string | undefined;
  constructor(
    kind: PaymentsErrorKind,
    message: string,
    opts: { status?: number; code?: string; param?: string; retryAfterSeconds?: number } = {},
  ) {
    super(kind, message, opts);
    this.name = 'PaymentsError';
    this.code = opts.code;
    this.param = opts.param;
  }
}

export const isPaymentsError = (e: unknown): e is PaymentsError => e instanceof PaymentsError;

/** One provider's adapters; composition roots pick the provider, services see only this. */
export interface PaymentsAdapters {
  api: PaymentsApi;
  /** Checks webhooks signed with any of `secrets` (current first, during a roll). */
  webhookVerifier(secrets: string[], toleranceSeconds?: number): PaymentWebhookVerifier;
}
