/**
 * LOCAL Stripe stand-in, for embedded mode and tests only: a stateful server that honours Stripe's
 * documented API for every call the Stripe adapter makes (docs/payments.md), so the official SDK
 * can be pointed at it (`new Stripe(key, { host, port, protocol: 'http' })`) and a customer can pay
 * on its hosted card page in a real browser with nothing leaving the machine.
 *
 * - `/v1/*`: `Authorization: Bearer <secretKey>`; form-encoded bodies; `Stripe-Account` scopes every
 *   object to a connected account; `Idempotency-Key` replay; Stripe's error shape; `Request-Id`.
 * - `/c/pay/:session`: the hosted card page (test cards in local-stripe.cards.ts);
 *   `/connect/setup/:token`: the onboarding page of an account link.
 * - events signed as Stripe signs them, delivered to the endpoints registered (API or
 *   `addWebhookEndpoint`) and retried with backoff on a non-2xx answer.
 * State lives in memory: a restart starts with no accounts.
 */
import Fastify from 'fastify';

import { registerStripeApi, requestId } from './local-stripe.api.js';
import type { CardInput } from './local-stripe.cards.js';
import { StripeApiError } from './local-stripe.errors.js';
import { parseStripeForm } from './local-stripe.form.js';
import { type Obj, PLATFORM } from './local-stripe.objects.js';
import { registerStripePages } from './local-stripe.pages.js';
import { LocalStripeState, type PayResult } from './local-stripe.state.js';
import {
  DEFAULT_RETRY_DELAYS_MS,
  type LocalStripeDelivery,
  LocalStripeWebhooks,
  type LocalWebhookEndpoint,
} from './local-stripe.webhooks.js';

export type { LocalStripeDelivery, LocalWebhookEndpoint } from './local-stripe.webhooks.js';
export { TEST_CARDS } from './local-stripe.cards.js';

export interface LocalStripeOptions {
  /** The platform's secret key the API accepts (`sk_test_…`). */
  secretKey: string;
  host?: string;
  port?: number;
  now?: () => Date;
  /** Delays between delivery attempts of a webhook (default 1 s, 5 s, 30 s, 2 min, 10 min). */
  retryDelaysMs?: number[];
}

export interface RunningLocalStripe {
  /** `http://host:port`: the API base (STRIPE_API_BASE) and the pages' origin. */
  url: string;
  /** Registers an endpoint; `connect` for connected accounts' events. Returns its id and `whsec_` secret. */
  addWebhookEndpoint(
    url: string,
    opts?: { connect?: boolean; enabledEvents?: string[]; secret?: string },
  ): LocalWebhookEndpoint;
  events: Obj[];
  deliveries: LocalStripeDelivery[];
  /** What the hosted page does with a card (tests without a browser). */
  pay(sessionId: string, card: CardInput): PayResult;
  authenticate(sessionId: string, approve: boolean): PayResult;
  /**
   * A refund made in the Stripe dashboard on the connected account (no metadata, no idempotency key):
   * announced by `refund.created` and `charge.refunded` like any refund. All that is left when no amount.
   */
  refundFromDashboard(accountId: string, paymentIntentId: string, amountMinor?: number): Obj;
  /** Sends an event again to the endpoints that got it (a duplicate delivery). */
  resendEvent(eventId: string): Promise<(number | null)[]>;
  advanceTime(ms: number): void;
  now(): Date;
  flushWebhooks(): Promise<void>;
  close(): Promise<void>;
}

const mask = (key: string): string => `${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`;

export async function startLocalStripe(opts: LocalStripeOptions): Promise<RunningLocalStripe> {
  let offsetMs = 0;
  const now = (): Date => new Date((opts.now ? opts.now().getTime() : Date.now()) + offsetMs);
  const webhooks = new LocalStripeWebhooks(now, opts.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS);
  let current: { id: string | null; idempotencyKey: string | null } = { id: null, idempotencyKey: null };
  const app = Fastify({ logger: false });
  // The base is known once listening; pages and links are built with it lazily.
  let base = '';
  const state = new LocalStripeState(
    () => base,
    now,
    (type, object, account) => void webhooks.emit(type, object, account, current),
  );
  const scopes = new WeakMap<object, string>();

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, parseStripeForm(String(body))),
  );
  app.addHook('onRequest', async (req, reply) => {
    const rid = requestId();
    void reply.header('request-id', rid);
    if (!req.url.startsWith('/v1/')) return;
    const auth = req.headers.authorization ?? '';
    const key = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    if (!key)
      throw new StripeApiError(
        401,
        'invalid_request_error',
        'You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth.',
      );
    if (key !== opts.secretKey)
      throw new StripeApiError(401, 'invalid_request_error', `Invalid API Key provided: ${mask(key)}`);
    const account = req.headers['stripe-account'];
    let scope = PLATFORM;
    if (typeof account === 'string' && account !== '') {
      if (!state.connect.accounts.has(account))
        throw new StripeApiError(
          403,
          'invalid_request_error',
          `The provided key '${mask(key)}' does not have access to account '${account}' (or that account does not exist). Application access may have been revoked.`,
        );
      scope = account;
    }
    scopes.set(req, scope);
  });
  app.addHook('preHandler', async (req, reply) => {
    // Handlers change state synchronously after this, so the events they emit carry this request's
    // id (null for what a customer does on a page, as at Stripe).
    const idem = req.headers['idempotency-key'];
    current = req.url.startsWith('/v1/')
      ? { id: String(reply.getHeader('request-id')), idempotencyKey: typeof idem === 'string' ? idem : null }
      : { id: null, idempotencyKey: null };
  });
  app.setErrorHandler((e, _req, reply) => {
    if (e instanceof StripeApiError) return reply.code(e.status).send(e.body);
    const status = (e as { statusCode?: number }).statusCode ?? 500;
    return reply.code(status).send({
      error: {
        type: status < 500 ? 'invalid_request_error' : 'api_error',
        message: status < 500 ? 'Invalid request.' : 'An unknown error occurred.',
      },
    });
  });

  registerStripeApi(app, { state, webhooks, scopeOf: (req) => scopes.get(req) ?? PLATFORM });
  registerStripePages(app, state);

  const address = await app.listen({ host: opts.host ?? '127.0.0.1', port: opts.port ?? 0 });
  base = address;
  return {
    url: address,
    addWebhookEndpoint: (url, o = {}) => webhooks.addEndpoint({ url, ...o }),
    events: webhooks.events,
    deliveries: webhooks.deliveries,
    pay: (id, card) => state.pay(id, card),
    authenticate: (id, approve) => state.authenticate(id, approve),
    refundFromDashboard: (account, pi, amount) =>
      state.createRefund(account, { payment_intent: pi, ...(amount !== undefined && { amount: String(amount) }) }),
    resendEvent: (id) => webhooks.resend(id),
    advanceTime: (ms) => void (offsetMs += ms),
    now,
    flushWebhooks: () => webhooks.flush(),
    async close() {
      await webhooks.close();
      await app.close();
    },
  };
}
