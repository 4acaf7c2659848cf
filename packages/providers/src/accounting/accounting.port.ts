/**
 * Accounting capability: our own types, independent of any provider. The Xero adapter
 * (`xero/`) and the local stand-in (`local/`) speak Xero's protocol; callers only see these.
 *
 * Split in two ports because they hold different credentials:
 * - `AccountingOAuth`: the app's client id/secret → token sets and connected organisations;
 * - `AccountingApi`: one organisation's data, each call with `{ accessToken, tenantId }`.
 *
 * Every failure is an `AccountingError`: `kind` says what happened, `needsReconnect` means the
 * grant is gone (disconnect and connect again), `retryable` means try again later (after
 * `retryAfterSeconds` when the provider said so).
 */
import { ProviderError } from '../http/provider-error.js';
import type { InvoiceLineInput, InvoiceStatus, LineAmountTypes } from './accounting-documents.types.js';
import type * as Money from './accounting-money.types.js';

export type { InvoiceLineInput, InvoiceStatus, LineAmountTypes } from './accounting-documents.types.js';

// ---------- OAuth ----------

export interface AuthorizeUrlInput {
  clientId: string;
  /** Must equal a redirect URI registered with the provider exactly (trailing slash included). */
  redirectUri: string;
  /** Opaque, unguessable, checked on the callback (CSRF). */
  state: string;
  /** base64url(SHA-256(codeVerifier)); see `createPkcePair`. */
  codeChallenge: string;
  /** e.g. `['offline_access', 'accounting.invoices', 'accounting.payments', 'accounting.contacts']`. */
  scopes: string[];
}

export interface ExchangeCodeInput {
  clientId: string;
  clientSecret: string;
  code: string;
  redirectUri: string;
  codeVerifier: string;
}

export interface RefreshInput {
  clientId: string;
  clientSecret: string;
  refreshToken: string;
}

export interface AccountingTokenSet {
  accessToken: string;
  /** Rotates on every refresh: store the new one at once, replacing the old. */
  refreshToken: string;
  /** When the access token stops working (Xero: 30 min after issue). */
  expiresAt: Date;
  /** Space-separated scopes granted. */
  scope: string;
}

export interface AccountingConnection {
  tenantId: string;
  tenantName: string;
}

export interface AccountingOAuth {
  /** The URL to send the user's browser to. No network call. */
  authorizeUrl(input: AuthorizeUrlInput): string;
  exchangeCode(input: ExchangeCodeInput): Promise<AccountingTokenSet>;
  /**
   * Keep one refresh in flight per token set: parallel refreshes with the same token cause
   * `invalid_grant` once the grace period of the rotated token is over.
   */
  refresh(input: RefreshInput): Promise<AccountingTokenSet>;
  /** Organisations this access token may act on. */
  connections(accessToken: string): Promise<AccountingConnection[]>;
  /** Revokes the refresh token and every connection made with it (the "Disconnect" button). */
  revoke(input: RefreshInput): Promise<void>;
}

// ---------- API ----------

export interface AccountingAuth {
  accessToken: string;
  tenantId: string;
}

export interface UpsertContactInput {
  name: string;
  email?: string;
  phone?: string;
  /** Our stable external reference (e.g. the ERP partner id); the contact is found by it. */
  contactNumber: string;
}

export interface FoundContact {
  contactId: string;
  name: string;
  contactNumber: string | undefined;
  email: string | undefined;
  status: string;
}

export interface CreateInvoiceInput {
  contactId: string;
  /** Our stable reference (e.g. the ERP invoice name); used by `findInvoiceByReference`. */
  reference: string;
  /** Calendar dates, `YYYY-MM-DD`. */
  date: string;
  dueDate?: string;
  lineAmountTypes: LineAmountTypes;
  status: 'AUTHORISED';
  lines: InvoiceLineInput[];
  /**
   * Sent as `Idempotency-Key`: a repeat with the same key is answered with the first result, so a
   * retry after a lost reply never creates a second invoice (at most 128 characters).
   */
  idempotencyKey?: string;
}

export interface CreatedInvoice {
  invoiceId: string;
  invoiceNumber: string;
  status: InvoiceStatus;
  total: number;
}

export interface InvoicePayment {
  paymentId: string;
  amount: number;
  /** Payment date (a calendar date at 00:00 UTC). */
  date: Date;
  /** `DELETED` once removed at the provider (the provider may also just drop it from the invoice). */
  status: 'AUTHORISED' | 'DELETED' | (string & {});
  /** The payment's Reference ('' when none): tells the payments we sent from those made at the provider. */
  reference: string;
}

/** A credit note, prepayment or overpayment allocated to the invoice (lowers AmountDue). */
export interface InvoiceAllocation {
  kind: 'credit_note' | 'prepayment' | 'overpayment';
  /** The credit note / prepayment / overpayment id. */
  id: string;
  /** Credit note number, when there is one. */
  number: string;
  /** The part of it applied to this invoice. */
  appliedAmount: number;
  date: Date;
}

export interface AccountingInvoice {
  invoiceId: string;
  invoiceNumber: string;
  reference: string;
  status: InvoiceStatus;
  total: number;
  amountDue: number;
  amountPaid: number;
  /** Sum of the credit notes, prepayments and overpayments applied. */
  amountCredited: number;
  payments: InvoicePayment[];
  allocations: InvoiceAllocation[];
}

export interface ContactInput {
  name: string;
  email?: string;
  phone?: string;
  contactNumber: string;
}

/** One of the organisation's tax rates (Xero `GET /TaxRates`). */
export interface AccountingTaxRate {
  /** The code a line's `taxType` carries (`OUTPUT`, `TAX001`…; varies by region and organisation). */
  taxType: string;
  name: string;
  /** Percent, up to 4 decimals (12.5 for 12.5 %): what a line is taxed at (compound components included). */
  effectiveRate: number;
  /** Percent as the provider shows it. */
  displayRate: number;
  /** Only `ACTIVE` rates can be put on a new invoice. */
  status: 'ACTIVE' | 'ARCHIVED' | 'DELETED' | 'PENDING' | (string & {});
  /** False for rates meant only for purchases. */
  canApplyToRevenue: boolean;
}

export interface AccountingApi {
  /** Every tax rate of the organisation, archived and deleted ones included. */
  listTaxRates(auth: AccountingAuth): Promise<AccountingTaxRate[]>;
  /** Finds the contact by `contactNumber`; updates it, or creates it when there is none. */
  upsertContact(auth: AccountingAuth, input: UpsertContactInput): Promise<{ contactId: string }>;
  createInvoice(auth: AccountingAuth, input: CreateInvoiceInput): Promise<CreatedInvoice>;
  /**
   * The non-deleted, non-voided sales invoice with this reference, or `null`. Call it before
   * re-sending `createInvoice` after an unknown outcome (timeout), so a retry never duplicates.
   */
  findInvoiceByReference(auth: AccountingAuth, reference: string): Promise<AccountingInvoice | null>;
  /** Throws `AccountingError` kind `not_found` for an unknown id. */
  getInvoice(auth: AccountingAuth, invoiceId: string): Promise<AccountingInvoice>;
  /** Contacts (archived included) whose ContactNumber, or else exact Name, is the one given. */
  findContacts(auth: AccountingAuth, by: { contactNumber: string } | { name: string }): Promise<FoundContact[]>;
  /** Creates a contact; `idempotencyKey` as for invoices. */
  createContact(auth: AccountingAuth, input: ContactInput, idempotencyKey?: string): Promise<{ contactId: string }>;
  /** Records a payment on an invoice, or a refund from a credit note (Xero `PUT /Payments`). */
  createPayment(auth: AccountingAuth, input: Money.CreatePaymentInput): Promise<Money.CreatedPayment>;
  /** Creates an AUTHORISED sales credit note (Xero `PUT /CreditNotes`). */
  createCreditNote(auth: AccountingAuth, input: Money.CreateCreditNoteInput): Promise<Money.AccountingCreditNote>;
  /** Allocates `amount` of the credit note to the invoice (Xero `PUT /CreditNotes/{id}/Allocations`). */
  allocateCreditNote(auth: AccountingAuth, id: string, a: Money.CreditNoteAllocation, key?: string): Promise<void>;
  /** Throws `AccountingError` kind `not_found` for an unknown id. */
  getCreditNote(auth: AccountingAuth, creditNoteId: string): Promise<Money.AccountingCreditNote>;
  /** A payment's current status and amount (a deleted one stays readable with status `DELETED`). */
  getPayment(
    auth: AccountingAuth,
    paymentId: string,
  ): Promise<{ paymentId: string; status: string; amount: number; invoiceId: string | undefined }>;
}

// ---------- Webhooks ----------

export interface AccountingWebhookEvent {
  resourceUrl: string;
  resourceId: string;
  /** As sent, UTC without `Z` (e.g. `2024-06-21T01:15:39.902`); part of the dedupe key. */
  eventDateUtc: string;
  occurredAt: Date;
  eventType: 'CREATE' | 'UPDATE' | (string & {});
  eventCategory: 'INVOICE' | 'CONTACT' | 'CREDITNOTE' | 'SUBSCRIPTION' | (string & {});
  tenantId: string;
  tenantType: 'ORGANISATION' | 'APPLICATION' | (string & {});
}

export interface AccountingWebhookBatch {
  events: AccountingWebhookEvent[];
  firstEventSequence: number;
  lastEventSequence: number;
  entropy: string;
  /** An intent-to-receive probe (no events): answer 200 when the signature is right, else 401. */
  isIntentToReceive: boolean;
}

// ---------- Errors ----------

export type AccountingErrorKind =
  | 'invalid_grant' // refresh token / code expired, revoked or reused: reconnect
  | 'invalid_client' // wrong client id/secret: configuration
  | 'oauth' // other OAuth error (invalid_request, unsupported_grant_type…)
  | 'unauthorized' // access token expired or invalid: refresh, then retry
  | 'forbidden' // tenant not connected to this token, or scope missing
  | 'not_found'
  | 'validation' // the provider refused the data (400 ValidationException)
  | 'rate_limited' // 429: retry after `retryAfterSeconds`
  | 'http' // other HTTP status (5xx…)
  | 'network'
  | 'timeout'
  | 'format'; // the answer was not what the protocol says

/** A `ProviderError` of the accounting port (the class other code catches); adds `needsReconnect`. */
export class AccountingError extends ProviderError<AccountingErrorKind> {
  constructor(
    kind: AccountingErrorKind,
    message: string,
    opts: { status?: number; retryAfterSeconds?: number; details?: string[] } = {},
  ) {
    super(kind, message, opts);
    this.name = 'AccountingError';
  }

  /** The grant is gone: the user must disconnect and connect again. */
  get needsReconnect(): boolean {
    // 403: the organisation is no longer connected to this grant, or the grant lacks the scope
    // the call needs. Both are fixed by connecting again (with the scopes consented).
    return this.kind === 'invalid_grant' || this.kind === 'forbidden';
  }
}

export const isAccountingError = (e: unknown): e is AccountingError => e instanceof AccountingError;

/** A webhook request as received: the body exactly as sent (the signature covers these bytes). */
export interface AccountingWebhookRequest {
  headers: Record<string, string | string[] | undefined>;
  rawBody: Buffer;
  /** The body decoded by its declared charset, when it differs from UTF-8. */
  text?: string;
}

/** Checks and reads the provider's webhooks (the protocol's header, signature and payload). */
export interface AccountingWebhookVerifier {
  /** True only when the request is signed with `webhookKey` (compared in constant time). */
  verify(request: AccountingWebhookRequest, webhookKey: string): boolean;
  /** Parses a verified request; throws `AccountingError` kind `format` when it is not the protocol's shape. */
  parse(request: AccountingWebhookRequest): AccountingWebhookBatch;
}

/** Dedupe key for one webhook event (tenantId + resourceId + eventDateUtc). */
export const webhookEventKey = (e: Pick<AccountingWebhookEvent, 'tenantId' | 'resourceId' | 'eventDateUtc'>): string =>
  `${e.tenantId}:${e.resourceId}:${e.eventDateUtc}`;

/** One accounting provider's adapters (composition roots pick the provider). */
export interface AccountingAdapters {
  oauth: AccountingOAuth;
  api: AccountingApi;
  webhooks: AccountingWebhookVerifier;
}
