/**
 * The tenant's payments settings (owners and admins; docs/payments.md) and the provider's webhook:
 *   GET  /api/tenants/{id}/payments               → the connected account's state and the deposit rule
 *   POST /api/tenants/{id}/payments/connect       → {onboarding_url} (the account made once, then reused)
 *   PUT  /api/tenants/{id}/payments/deposit-rule  → none | percent (1–100) | fixed (minor units)
 *   POST /webhooks/payments                       → signed by the provider; 400 and nothing changed otherwise
 *   POST /sales/quotes/{id}/deposit               → the office records a cash, check or bank deposit
 */
import { DEPOSIT_FIXED_MAX_MINOR } from '@platform/contracts';
import { sendAnswer } from '@platform/http-kit';
import { idempotencyKeyOf } from '@platform/intake';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';

import type { ControlDeps } from '../../deps.js';
import { route, type RouteCatalogue } from '../../openapi/routes.js';
import { assertOwnTenant, authenticate, principalOf, requireRole } from '../auth/auth.guard.js';
import { PAYMENTS_WEBHOOK_PATH, type PaymentsFeature } from './payments.compose.js';

const params = z.object({ id: z.uuid({ error: 'must be a UUID' }) });
const base = '/api/tenants/:id/payments';
const WEBHOOK_BODY_LIMIT = 1_048_576;

const depositRuleBody = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('none') }),
    z.strictObject({
      kind: z.literal('percent'),
      percent: z
        .number({ error: 'must be a whole percent' })
        .int('must be a whole percent')
        .min(1, 'must be at least 1')
        .max(100, 'must be at most 100'),
    }),
    z.strictObject({
      kind: z.literal('fixed'),
      amount_minor: z
        .number({ error: 'must be an amount in minor units (cents)' })
        .int('must be a whole number of minor units (cents)')
        .min(1, 'must be more than 0')
        .max(DEPOSIT_FIXED_MAX_MINOR, `must be at most ${DEPOSIT_FIXED_MAX_MINOR} minor units`),
    }),
  ],
  { error: 'must be none, percent or fixed' },
);

const officeDepositBody = z.strictObject({
  method: z.enum(['cash', 'check', 'bank'], { error: 'must be cash, check or bank' }),
  amount_minor: z
    .number({ error: 'must be an amount in minor units (cents)' })
    .int('must be a whole number of minor units (cents)')
    .min(1, 'must be more than 0')
    .max(DEPOSIT_FIXED_MAX_MINOR, `must be at most ${DEPOSIT_FIXED_MAX_MINOR} minor units`),
  reference: z.string().trim().max(200, 'must be at most 200 characters').optional(),
});

export function registerPaymentRoutes(
  app: FastifyInstance,
  catalogue: RouteCatalogue,
  deps: ControlDeps & { payments: PaymentsFeature },
): void {
  const managers = [authenticate(deps), requireRole('owner', 'admin')];
  const actor = (req: FastifyRequest, id: string) => ({ principal: assertOwnTenant(req, id), ip: req.ip });
  const svc = deps.payments.settings;
  const common = { tags: ['payments'], security: 'bearer' as const, preHandler: managers, params };

  route(app, catalogue, {
    ...common,
    method: 'GET',
    url: base,
    summary: "The tenant's connected payments account (state only) and its deposit rule",
    handler: async ({ params: p }, req) => svc.view(actor(req, p.id).principal.tenantId),
  });

  route(app, catalogue, {
    ...common,
    method: 'POST',
    url: `${base}/connect`,
    summary: "Connect the tenant's payments account: made once, then reused; answers a fresh onboarding URL",
    responses: {
      '200': '{onboarding_url, account_id}',
      '502': 'PAYMENTS_PROVIDER_FAILED',
      '503': 'PAYMENTS_NOT_CONFIGURED',
    },
    handler: async ({ params: p }, req) => svc.connect(actor(req, p.id)),
  });

  route(app, catalogue, {
    ...common,
    method: 'PUT',
    url: `${base}/deposit-rule`,
    summary: 'Set the deposit asked at acceptance: none, a whole percent (1–100) or a fixed amount in minor units',
    body: depositRuleBody,
    responses: { '200': 'Saved: the payments settings', '422': 'VALIDATION_FAILED' },
    handler: async ({ params: p, body }, req) => svc.setDepositRule(actor(req, p.id), body),
  });

  route(app, catalogue, {
    method: 'POST',
    url: '/sales/quotes/:id/deposit',
    tags: ['payments'],
    security: 'bearer',
    preHandler: [authenticate(deps), requireRole('owner', 'admin', 'office')],
    params,
    summary:
      'Record a deposit paid by cash, check or bank transfer: the ERP order confirmed, its down-payment invoice posted and paid; Idempotency-Key honoured',
    body: officeDepositBody,
    responses: {
      '201': 'Recorded; the ERP side follows',
      '404': 'NOT_FOUND',
      '409': 'DEPOSIT_NOT_DUE',
      '422': 'VALIDATION_FAILED',
    },
    handler: async ({ params: p, body }, req, reply) =>
      sendAnswer(
        reply,
        await deps.payments.office.record(
          principalOf(req),
          p.id,
          body,
          idempotencyKeyOf(req.headers['idempotency-key']),
          req.ip,
        ),
      ),
  });

  // The signature covers the exact bytes: this scope keeps the body raw instead of parsing JSON.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );
    route(scope, catalogue, {
      method: 'POST',
      url: PAYMENTS_WEBHOOK_PATH,
      tags: ['payments'],
      security: 'none',
      summary: "The payments provider's webhook (Stripe-Signature over the raw body; events of connected accounts)",
      responses: { '200': '{received: true}', '400': 'PAYMENT_WEBHOOK_INVALID', '503': 'PAYMENTS_NOT_CONFIGURED' },
      handler: async (_input, req) => {
        const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const out = await deps.payments.webhook.receive({ headers: req.headers, rawBody });
        if (out.status === 'ignored')
          // Ids and type only: the body (and any signature) stays out of the log.
          req.log.info(
            { event_id: out.eventId, type: out.type, account_id: out.accountId, reason: out.reason },
            'payments webhook: event for no tenant, acknowledged and ignored',
          );
        else if (out.status === 'handled' && out.ignored)
          req.log.warn(
            { event_id: out.eventId, type: out.type, tenant_id: out.tenantId, reason: out.ignored },
            'payments webhook: checkout not matching what the platform asked, ignored',
          );
        return { received: true };
      },
    });
  });
}
