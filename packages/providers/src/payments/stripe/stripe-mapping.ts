/**
 * Stripe objects (as the API and webhooks carry them) read into the payments port's types. Stripe
 * writes currencies in lower case; the port uses ISO upper case. Metadata that is not the
 * platform's own (missing tenant_id, kind or ref) reads as null so nobody acts on it.
 */
import type {
  CheckoutSession,
  ConnectedAccount,
  PaymentDetails,
  PaymentIntentStatus,
  PaymentMetadata,
  PaymentStatus,
  Refund,
  RefundNotice,
  SessionStatus,
} from '../payments.port.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' ? (v as Obj) : {});
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const int = (v: unknown): number => (typeof v === 'number' && Number.isInteger(v) ? v : 0);
const idOf = (v: unknown): string | null => str(v) ?? str(obj(v)['id']);

export function metadataOf(v: unknown): PaymentMetadata | null {
  const m = obj(v);
  const tenantId = str(m['tenant_id']);
  const ref = str(m['ref']);
  const kind = m['kind'];
  if (!tenantId || !ref || (kind !== 'deposit' && kind !== 'invoice')) return null;
  return { tenantId, kind, ref };
}

export function toStripeMetadata(m: PaymentMetadata): Record<string, string> {
  return { tenant_id: m.tenantId, kind: m.kind, ref: m.ref };
}

export function accountOf(v: unknown): ConnectedAccount {
  const a = obj(v);
  return {
    accountId: str(a['id']) ?? '',
    chargesEnabled: a['charges_enabled'] === true,
    detailsSubmitted: a['details_submitted'] === true,
    payoutsEnabled: a['payouts_enabled'] === true,
    businessName: str(obj(a['business_profile'])['name']) ?? undefined,
  };
}

export function sessionOf(v: unknown, accountId: string): CheckoutSession {
  const s = obj(v);
  return {
    sessionId: str(s['id']) ?? '',
    accountId,
    url: str(s['url']),
    status: (str(s['status']) ?? 'open') as SessionStatus,
    paymentStatus: (str(s['payment_status']) ?? 'unpaid') as PaymentStatus,
    paymentIntentId: idOf(s['payment_intent']),
    amountMinor: int(s['amount_total']),
    currency: (str(s['currency']) ?? '').toUpperCase(),
    metadata: metadataOf(s['metadata']),
    createdAt: new Date(int(s['created']) * 1000),
  };
}

export function paymentOf(v: unknown, accountId: string): PaymentDetails {
  const p = obj(v);
  const charge = obj(p['latest_charge']);
  const card = obj(obj(charge['payment_method_details'])['card']);
  const error = obj(p['last_payment_error']);
  const succeeded = charge['status'] === 'succeeded';
  return {
    paymentIntentId: str(p['id']) ?? '',
    accountId,
    status: (str(p['status']) ?? 'requires_payment_method') as PaymentIntentStatus,
    amountMinor: int(p['amount']),
    currency: (str(p['currency']) ?? '').toUpperCase(),
    amountReceivedMinor: int(p['amount_received']),
    chargeId: succeeded ? str(charge['id']) : null,
    amountRefundedMinor: int(charge['amount_refunded']),
    card: str(card['last4']) ? { brand: str(card['brand']) ?? 'card', last4: str(card['last4'])! } : null,
    lastError: str(error['message']),
    metadata: metadataOf(p['metadata']),
  };
}

/** A Refund object (API answer or `refund.created`); `ref` is the metadata the platform keeps on its own. */
export function refundOf(v: unknown, accountId: string): RefundNotice {
  const r = obj(v);
  return {
    refundId: str(r['id']) ?? '',
    paymentIntentId: idOf(r['payment_intent']) ?? '',
    chargeId: idOf(r['charge']),
    accountId,
    amountMinor: int(r['amount']),
    currency: (str(r['currency']) ?? '').toUpperCase(),
    status: (str(r['status']) ?? 'pending') as Refund['status'],
    ref: str(obj(r['metadata'])['ref']),
  };
}
