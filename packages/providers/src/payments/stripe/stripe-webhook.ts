/**
 * Stripe's webhook signature (docs.stripe.com/webhooks/signatures): header
 * `Stripe-Signature: t=<unix s>,v1=<hex>[,v1=…]`, each v1 = hex HMAC-SHA256 keyed with the whole
 * endpoint secret (`whsec_…`, not decoded) over `${t}.${rawBody}`. Any v1 may match (two during a
 * secret roll); other schemes (v0) are ignored. Events older than the tolerance (300 s, as the
 * official SDK's constructEvent) are refused as replays.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

import type {
  PaymentEvent,
  PaymentEventEnvelope,
  PaymentWebhookRequest,
  PaymentWebhookResult,
  PaymentWebhookVerifier,
} from '../payments.port.js';
import { accountOf, metadataOf, paymentOf, refundOf, sessionOf } from './stripe-mapping.js';

export const STRIPE_SIGNATURE_HEADER = 'stripe-signature';
export const STRIPE_WEBHOOK_TOLERANCE_SECONDS = 300;

const hmacHex = (secret: string, t: number, body: string): string =>
  createHmac('sha256', secret).update(`${t}.${body}`, 'utf8').digest('hex');

/** The header Stripe sends for `body` signed with `secret` at `timestamp` (unix seconds). */
export function signStripePayload(body: string, secret: string, timestamp: number): string {
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, body)}`;
}

function parseHeader(h: string): { t: number; v1: string[] } | null {
  let t = NaN;
  const v1: string[] = [];
  for (const part of h.split(',')) {
    const i = part.indexOf('=');
    const [k, v] = [part.slice(0, i).trim(), part.slice(i + 1).trim()];
    if (k === 't') t = Number(v);
    else if (k === 'v1') v1.push(v);
  }
  return Number.isInteger(t) && v1.length > 0 ? { t, v1 } : null;
}

const sameHex = (a: string, b: string): boolean =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

function eventOf(type: string, object: unknown, accountId: string): PaymentEvent | null {
  const o = (object ?? {}) as Record<string, unknown>;
  switch (type) {
    case 'checkout.session.completed':
      return { type, session: sessionOf(o, accountId) };
    case 'payment_intent.payment_failed':
      return { type, payment: paymentOf(o, accountId) };
    case 'charge.refunded':
      return {
        type,
        chargeId: String(o['id'] ?? ''),
        paymentIntentId: typeof o['payment_intent'] === 'string' ? o['payment_intent'] : null,
        amountRefundedMinor: Number(o['amount_refunded'] ?? 0),
        currency: String(o['currency'] ?? '').toUpperCase(),
        metadata: metadataOf(o['metadata']),
      };
    case 'refund.created':
      return { type, refund: refundOf(o, accountId) };
    case 'account.updated':
      return { type, account: accountOf(o) };
    default:
      return null;
  }
}

/** Reads a verified body; null when it is not a Stripe event. */
export function parseStripeEvent(body: string): PaymentEventEnvelope | null {
  let e: Record<string, unknown>;
  try {
    e = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return null;
  }
  const type = e['type'];
  const data = e['data'] as { object?: unknown } | undefined;
  if (e['object'] !== 'event' || typeof e['id'] !== 'string' || typeof type !== 'string' || !data) return null;
  const accountId = typeof e['account'] === 'string' ? e['account'] : null;
  return {
    eventId: e['id'],
    accountId,
    createdAt: new Date(Number(e['created'] ?? 0) * 1000),
    livemode: e['livemode'] === true,
    type,
    event: eventOf(type, data.object, accountId ?? ''),
  };
}

export function stripeWebhookVerifier(
  secrets: string[],
  toleranceSeconds = STRIPE_WEBHOOK_TOLERANCE_SECONDS,
  now: () => Date = () => new Date(),
): PaymentWebhookVerifier {
  return {
    verify(req: PaymentWebhookRequest): PaymentWebhookResult {
      const raw = req.headers[STRIPE_SIGNATURE_HEADER] ?? req.headers['Stripe-Signature'];
      const header = Array.isArray(raw) ? raw[0] : raw;
      if (!header) return { ok: false, reason: 'missing_signature' };
      const parsed = parseHeader(header);
      if (!parsed) return { ok: false, reason: 'bad_signature' };
      const body = typeof req.rawBody === 'string' ? req.rawBody : req.rawBody.toString('utf8');
      const matches = secrets.some((s) => {
        const want = hmacHex(s, parsed.t, body);
        return parsed.v1.some((v) => sameHex(v, want));
      });
      if (!matches) return { ok: false, reason: 'bad_signature' };
      if (Math.floor(now().getTime() / 1000) - parsed.t > toleranceSeconds)
        return { ok: false, reason: 'stale_timestamp' };
      const envelope = parseStripeEvent(body);
      return envelope ? { ok: true, envelope } : { ok: false, reason: 'malformed' };
    },
  };
}
