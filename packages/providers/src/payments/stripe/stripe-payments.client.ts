/**
 * The payments port on Stripe's official Node SDK (`stripe`): Connect accounts made by the platform,
 * and every money call made ON the tenant's connected account (`stripeAccount`, the `Stripe-Account`
 * header), so a session, payment or refund of one tenant is not found from another's account.
 * `apiBase` points the SDK at another host (the local stand-in); default api.stripe.com.
 * The secret key is never put in messages; SDK errors become `PaymentsError`.
 */
import Stripe from 'stripe';

import {
  type CheckoutSession,
  type PaymentsAdapters,
  type PaymentsApi,
  PaymentsError,
  type PaymentsErrorKind,
} from '../payments.port.js';
import { accountOf, paymentOf, refundOf, sessionOf, toStripeMetadata } from './stripe-mapping.js';
import { stripeWebhookVerifier } from './stripe-webhook.js';

export interface StripePaymentsOptions {
  /** `sk_live_…` / `sk_test_…` (STRIPE_SECRET_KEY). */
  secretKey: string;
  /** e.g. `http://127.0.0.1:12111` for the stand-in; default Stripe's own API. */
  apiBase?: string;
  timeoutMs?: number;
  /** The SDK retries network failures and 409/5xx with the same idempotency key. */
  maxNetworkRetries?: number;
}

export const DEFAULT_STRIPE_TIMEOUT_MS = 20_000;

export function stripeClientOf(o: StripePaymentsOptions): Stripe {
  const base = o.apiBase ? new URL(o.apiBase) : undefined;
  return new Stripe(o.secretKey, {
    timeout: o.timeoutMs ?? DEFAULT_STRIPE_TIMEOUT_MS,
    maxNetworkRetries: o.maxNetworkRetries ?? 2,
    ...(base && {
      host: base.hostname,
      port: base.port || (base.protocol === 'https:' ? '443' : '80'),
      protocol: base.protocol === 'https:' ? 'https' : 'http',
    }),
  });
}

function kindOf(e: { type?: string; statusCode?: number; rawType?: string; code?: string }): PaymentsErrorKind {
  if (e.rawType === 'idempotency_error' || e.type === 'StripeIdempotencyError') return 'idempotency_conflict';
  if (e.type === 'StripeCardError') return 'card_declined';
  if (e.type === 'StripeConnectionError') return 'network';
  if (e.code === 'resource_missing' || e.statusCode === 404) return 'not_found';
  const s = e.statusCode ?? 0;
  if (s === 429) return 'rate_limited';
  if (s === 401 || s === 403) return 'unauthorized';
  if (s === 400) return 'invalid_input';
  if (s >= 400 && s < 500) return 'rejected';
  return 'http';
}

/** Runs one SDK call; Stripe errors become `PaymentsError` (the provider's message, never the key). */
async function call<T>(label: string, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (!(e instanceof Stripe.errors.StripeError)) throw e;
    const raw = e as Stripe.errors.StripeError & { rawType?: string };
    const kind = kindOf(raw);
    throw new PaymentsError(kind, `Stripe ${label}: ${raw.message}`, {
      ...(raw.statusCode !== undefined && { status: raw.statusCode }),
      ...(raw.code !== undefined && { code: raw.code }),
      ...(raw.param !== undefined && { param: raw.param }),
    });
  }
}

/** Null instead of a not-found error (reads of an id the account does not have). */
async function orNull<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch (e) {
    if (e instanceof PaymentsError && e.kind === 'not_found') return null;
    throw e;
  }
}

export function createStripePayments(o: StripePaymentsOptions): PaymentsApi {
  const stripe = stripeClientOf(o);
  return {
    createAccount: (input) =>
      call('create account', async () =>
        accountOf(
          await stripe.accounts.create({
            type: input.type,
            ...(input.country && { country: input.country }),
            ...(input.email && { email: input.email }),
            metadata: { tenant_id: input.tenantId },
          }),
        ),
      ),
    getAccount: (accountId) => call('read account', async () => accountOf(await stripe.accounts.retrieve(accountId))),
    createOnboardingLink: (input) =>
      call('create account link', async () => {
        const link = await stripe.accountLinks.create({
          account: input.accountId,
          type: 'account_onboarding',
          refresh_url: input.refreshUrl,
          return_url: input.returnUrl,
        });
        return { url: link.url, expiresAt: new Date(link.expires_at * 1000) };
      }),
    createCheckout: (input) => {
      if (!Number.isInteger(input.amountMinor) || input.amountMinor <= 0)
        return Promise.reject(new PaymentsError('invalid_input', 'amountMinor must be a positive integer'));
      const metadata = toStripeMetadata(input.metadata);
      return call('create checkout session', async () =>
        sessionOf(
          await stripe.checkout.sessions.create(
            {
              mode: 'payment',
              line_items: [
                {
                  quantity: 1,
                  price_data: {
                    currency: input.currency.toLowerCase(),
                    unit_amount: input.amountMinor,
                    product_data: { name: input.description },
                  },
                },
              ],
              metadata,
              payment_intent_data: { metadata },
              client_reference_id: `${input.metadata.kind}:${input.metadata.ref}`,
              success_url: input.successUrl,
              cancel_url: input.cancelUrl,
              ...(input.customerEmail && { customer_email: input.customerEmail }),
            },
            { stripeAccount: input.accountId, idempotencyKey: input.idempotencyKey },
          ),
          input.accountId,
        ),
      );
    },
    getCheckout: (accountId, sessionId) =>
      orNull(
        call('read checkout session', async () =>
          sessionOf(await stripe.checkout.sessions.retrieve(sessionId, {}, { stripeAccount: accountId }), accountId),
        ),
      ),
    getPayment: (accountId, paymentIntentId) =>
      orNull(
        call('read payment', async () =>
          paymentOf(
            await stripe.paymentIntents.retrieve(
              paymentIntentId,
              { expand: ['latest_charge'] },
              { stripeAccount: accountId },
            ),
            accountId,
          ),
        ),
      ),
    listCompletedCheckouts: (input) =>
      call('list checkout sessions', async () => {
        const page = await stripe.checkout.sessions.list(
          { status: 'complete', created: { gte: Math.floor(input.since.getTime() / 1000) }, limit: input.limit ?? 100 },
          { stripeAccount: input.accountId },
        );
        return page.data.map((s): CheckoutSession => sessionOf(s, input.accountId));
      }),
    refund: (input) =>
      call('refund', async () => {
        const r = await stripe.refunds.create(
          {
            payment_intent: input.paymentIntentId,
            ...(input.amountMinor !== undefined && { amount: input.amountMinor }),
            ...(input.reason && { reason: input.reason }),
            ...(input.ref && { metadata: { ref: input.ref } }),
          },
          { stripeAccount: input.accountId, idempotencyKey: input.idempotencyKey },
        );
        const { refundId, paymentIntentId, amountMinor, currency, status } = refundOf(r, input.accountId);
        return { refundId, paymentIntentId, amountMinor, currency, status };
      }),
  };
}

export function stripePaymentsAdapters(o: StripePaymentsOptions): PaymentsAdapters {
  return {
    api: createStripePayments(o),
    webhookVerifier: (secrets, tolerance) => stripeWebhookVerifier(secrets, tolerance),
  };
}
