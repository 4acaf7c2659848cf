/**
 * The stand-in's objects, shaped as Stripe's API returns them (docs.stripe.com/api: accounts,
 * checkout/sessions, payment_intents, charges, refunds), with Stripe's id prefixes. Each object
 * belongs to one scope: the platform, or one connected account (`Stripe-Account`).
 */
import { randomBytes } from 'node:crypto';

export type Obj = Record<string, unknown>;

export const newId = (prefix: string, length = 24): string => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(length);
  return prefix + [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
};

export const PLATFORM = 'platform';

export interface Stored {
  scope: string;
  object: Obj;
}

/** Minimum charge per currency (docs.stripe.com/currencies#minimum-and-maximum-charge-amounts). */
export const MINIMUM_AMOUNT: Record<string, number> = { usd: 50, cad: 50, aud: 50, eur: 50, gbp: 30, nzd: 50 };

export function accountObject(id: string, p: Obj, created: number): Obj {
  const profile = (p['business_profile'] ?? {}) as Obj;
  return {
    id,
    object: 'account',
    type: p['type'] ?? 'express',
    country: p['country'] ?? 'US',
    email: p['email'] ?? null,
    default_currency: 'usd',
    charges_enabled: false,
    payouts_enabled: false,
    details_submitted: false,
    business_profile: { name: profile['name'] ?? null, url: profile['url'] ?? null },
    capabilities: {},
    metadata: p['metadata'] ?? {},
    created,
  };
}

export function sessionObject(id: string, p: Obj, total: number, currency: string, url: string, created: number): Obj {
  return {
    id,
    object: 'checkout.session',
    mode: 'payment',
    status: 'open',
    payment_status: 'unpaid',
    amount_subtotal: total,
    amount_total: total,
    currency,
    client_reference_id: p['client_reference_id'] ?? null,
    customer_email: p['customer_email'] ?? null,
    metadata: p['metadata'] ?? {},
    success_url: p['success_url'] ?? null,
    cancel_url: p['cancel_url'] ?? null,
    payment_intent: null,
    url,
    livemode: false,
    created,
    expires_at: created + 24 * 3600,
  };
}

export function paymentIntentObject(id: string, session: Obj, metadata: Obj, created: number): Obj {
  return {
    id,
    object: 'payment_intent',
    amount: session['amount_total'],
    amount_received: 0,
    currency: session['currency'],
    status: 'requires_payment_method',
    latest_charge: null,
    last_payment_error: null,
    metadata,
    livemode: false,
    created,
  };
}

export function chargeObject(id: string, pi: Obj, card: { brand: string; last4: string }, created: number): Obj {
  return {
    id,
    object: 'charge',
    amount: pi['amount'],
    amount_captured: pi['amount'],
    amount_refunded: 0,
    captured: true,
    currency: pi['currency'],
    paid: true,
    refunded: false,
    status: 'succeeded',
    payment_intent: pi['id'],
    metadata: pi['metadata'],
    payment_method_details: { type: 'card', card: { brand: card.brand, last4: card.last4 } },
    livemode: false,
    created,
  };
}

export function refundObject(id: string, charge: Obj, amount: number, p: Obj, created: number): Obj {
  return {
    id,
    object: 'refund',
    amount,
    currency: charge['currency'],
    charge: charge['id'],
    payment_intent: charge['payment_intent'],
    reason: p['reason'] ?? null,
    metadata: p['metadata'] ?? {},
    status: 'succeeded',
    created,
  };
}

/** Integer from a form value (`'2500'`), or NaN. */
export const intOf = (v: unknown): number => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : NaN);
