/**
 * The stand-in's `/v1` API: the calls the Stripe adapter makes, as docs.stripe.com/api documents them.
 * `Stripe-Account` scopes every object (another account's id is `resource_missing`); POSTs honour
 * `Idempotency-Key` (docs.stripe.com/api/idempotent_requests): the first answer is kept per key and
 * scope and replayed with `Idempotent-Replayed: true` for the same parameters, other parameters are
 * a 400 `idempotency_error`, and a request refused by validation is not kept.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { StripeApiError } from './local-stripe.errors.js';
import { fingerprintOf, parseStripeForm } from './local-stripe.form.js';
import { newId, type Obj, PLATFORM } from './local-stripe.objects.js';
import { LocalStripeState } from './local-stripe.state.js';
import type { LocalStripeWebhooks } from './local-stripe.webhooks.js';

interface Kept {
  path: string;
  fingerprint: string;
  status: number;
  body: unknown;
}

export interface ApiContext {
  state: LocalStripeState;
  webhooks: LocalStripeWebhooks;
  /** Set by the server's auth hook per request. */
  scopeOf(req: FastifyRequest): string;
}

const queryOf = (req: FastifyRequest): Obj => parseStripeForm(req.url.split('?')[1] ?? '');
const expandList = (q: Obj): string[] => (Array.isArray(q['expand']) ? (q['expand'] as string[]) : []);

/** Replaces ids named in `expand` (dot paths) by the objects of the same scope. */
function expanded(state: LocalStripeState, scope: string, o: Obj, paths: string[]): Obj {
  const out = structuredClone(o);
  for (const path of paths) {
    let at: Obj = out;
    const parts = path.split('.');
    parts.forEach((p, i) => {
      const v = at[p];
      if (typeof v === 'string' && state.scopeOf(v) === scope) at[p] = structuredClone(state.get(scope, v));
      if (i < parts.length - 1) at = (at[p] ?? {}) as Obj;
    });
  }
  return out;
}

export function registerStripeApi(app: FastifyInstance, ctx: ApiContext): void {
  const { state, webhooks } = ctx;
  const kept = new Map<string, Kept>();

  /** Runs a POST under its idempotency key (the SDK sends one with every POST). */
  function idempotent(req: FastifyRequest, reply: FastifyReply, run: (scope: string, p: Obj) => Obj): unknown {
    const scope = ctx.scopeOf(req);
    const params = (req.body ?? {}) as Obj;
    const key = req.headers['idempotency-key'];
    const k = typeof key === 'string' ? `${scope} ${key}` : undefined;
    const fingerprint = fingerprintOf(params);
    const prior = k ? kept.get(k) : undefined;
    if (prior) {
      if (prior.path !== req.routeOptions.url || prior.fingerprint !== fingerprint)
        throw new StripeApiError(
          400,
          'idempotency_error',
          `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${String(key)}' if you meant to execute a different request.`,
        );
      return reply.code(prior.status).header('idempotent-replayed', 'true').send(prior.body);
    }
    let status = 200;
    let body: unknown;
    try {
      body = run(scope, params);
    } catch (e) {
      // A refused (4xx) request is not kept: the same key may be sent again with corrected parameters.
      if (!(e instanceof StripeApiError) || e.status >= 500) {
        status = e instanceof StripeApiError ? e.status : 500;
        body =
          e instanceof StripeApiError ? e.body : { error: { type: 'api_error', message: 'An unknown error occurred' } };
        if (k) kept.set(k, { path: req.routeOptions.url ?? '', fingerprint, status, body });
      }
      throw e;
    }
    if (k) kept.set(k, { path: req.routeOptions.url ?? '', fingerprint, status, body });
    if (typeof key === 'string') void reply.header('idempotency-key', key);
    return body;
  }

  app.post('/v1/accounts', async (req, reply) => idempotent(req, reply, (_s, p) => state.connect.createAccount(p)));
  app.get('/v1/accounts/:id', async (req) => state.connect.account((req.params as { id: string }).id));
  app.get('/v1/account', async (req) => {
    const scope = ctx.scopeOf(req);
    if (scope === PLATFORM)
      throw new StripeApiError(400, 'invalid_request_error', 'The stand-in has no platform account object.');
    return state.connect.account(scope);
  });
  app.post('/v1/account_links', async (req, reply) =>
    idempotent(req, reply, (_s, p) => state.connect.createAccountLink(p)),
  );

  app.post('/v1/checkout/sessions', async (req, reply) =>
    idempotent(req, reply, (scope, p) => LocalStripeState.visible(state.createSession(scope, p))),
  );
  app.get('/v1/checkout/sessions/:id', async (req) => {
    const scope = ctx.scopeOf(req);
    const s = state.get(scope, (req.params as { id: string }).id);
    return expanded(state, scope, LocalStripeState.visible(s), expandList(queryOf(req)));
  });
  app.get('/v1/checkout/sessions', async (req) => {
    const scope = ctx.scopeOf(req);
    const q = queryOf(req);
    const created = (q['created'] ?? {}) as Obj;
    const n = (v: unknown): number | undefined => (v === undefined ? undefined : Number(v));
    const [gte, gt, lte, lt] = [n(created['gte']), n(created['gt']), n(created['lte']), n(created['lt'])];
    const limit = Math.min(100, Math.max(1, Number(q['limit'] ?? 10)));
    const all = [...state.objects.values()]
      .filter((x) => x.scope === scope && x.object['object'] === 'checkout.session')
      .map((x) => x.object)
      .filter((s) => {
        const c = Number(s['created']);
        return (
          (q['status'] === undefined || s['status'] === q['status']) &&
          (q['payment_intent'] === undefined || s['payment_intent'] === q['payment_intent']) &&
          (gte === undefined || c >= gte) &&
          (gt === undefined || c > gt) &&
          (lte === undefined || c <= lte) &&
          (lt === undefined || c < lt)
        );
      })
      .reverse();
    const after = q['starting_after'] ? all.findIndex((s) => s['id'] === q['starting_after']) + 1 : 0;
    const page = all.slice(after, after + limit);
    return {
      object: 'list',
      url: '/v1/checkout/sessions',
      has_more: after + limit < all.length,
      data: page.map((s) =>
        expanded(
          state,
          scope,
          LocalStripeState.visible(s),
          expandList(q).map((e) => e.replace(/^data\./, '')),
        ),
      ),
    };
  });

  app.get('/v1/payment_intents/:id', async (req) => {
    const scope = ctx.scopeOf(req);
    return expanded(state, scope, state.get(scope, (req.params as { id: string }).id), expandList(queryOf(req)));
  });
  app.get('/v1/charges/:id', async (req) => state.get(ctx.scopeOf(req), (req.params as { id: string }).id));
  app.post('/v1/refunds', async (req, reply) => idempotent(req, reply, (scope, p) => state.createRefund(scope, p)));
  app.get('/v1/refunds/:id', async (req) => state.get(ctx.scopeOf(req), (req.params as { id: string }).id));

  app.post('/v1/webhook_endpoints', async (req, reply) =>
    idempotent(req, reply, (_s, p) => {
      if (!p['url'])
        throw new StripeApiError(
          400,
          'invalid_request_error',
          'Missing required param: url.',
          'parameter_missing',
          'url',
        );
      const events = Array.isArray(p['enabled_events']) ? (p['enabled_events'] as string[]) : ['*'];
      const e = webhooks.addEndpoint({
        url: String(p['url']),
        connect: p['connect'] === 'true',
        enabledEvents: events,
      });
      return {
        id: e.id,
        object: 'webhook_endpoint',
        url: e.url,
        enabled_events: e.enabledEvents,
        secret: e.secret,
        status: 'enabled',
        application: null,
        livemode: false,
      };
    }),
  );
  app.get('/v1/events/:id', async (req) => {
    const scope = ctx.scopeOf(req);
    const id = (req.params as { id: string }).id;
    const e = webhooks.events.find((x) => x['id'] === id && (x['account'] ?? PLATFORM) === scope);
    if (!e) throw new StripeApiError(404, 'invalid_request_error', `No such event: '${id}'`, 'resource_missing', 'id');
    return e;
  });
}

export const requestId = (): string => newId('req_', 14);
