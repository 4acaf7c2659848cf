/**
 * Outbound webhooks of a tenant (owners and admins; plan feature `api_access`):
 *   GET    /api/tenants/{id}/webhooks                              → endpoints, paged
 *   POST   /api/tenants/{id}/webhooks {url, events, description?}  → 201 with the secret (shown once)
 *   GET    /api/tenants/{id}/webhooks/{endpoint_id}                → the endpoint
 *   PATCH  /api/tenants/{id}/webhooks/{endpoint_id} {url?, events?, description?, enabled?}
 *   DELETE /api/tenants/{id}/webhooks/{endpoint_id}                → 204
 *   POST   /api/tenants/{id}/webhooks/{endpoint_id}/rotate-secret  → the new secret (shown once)
 *   GET    /api/tenants/{id}/webhooks/{endpoint_id}/deliveries     → the delivery log, newest first, paged
 *   POST   /api/tenants/{id}/webhooks/{endpoint_id}/deliveries/{delivery_id}/replay → 201 (Idempotency-Key)
 */
import {
  WEBHOOK_EVENT_TYPES,
  type WebhookDeliveryView,
  type WebhookEndpointView,
  type WebhookEndpointWithSecret,
} from '@platform/contracts';
import { sendAnswer } from '@platform/http-kit';
import { idempotencyKeyOf } from '@platform/intake';
import type { WebhookDeliveryRow, WebhookEndpointRow } from '@platform/webhooks';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

import type { ControlDeps } from '../../deps.js';
import { pageQuery, route, type RouteCatalogue } from '../../openapi/routes.js';
import { assertOwnTenant, authenticate, requireRole } from '../auth/auth.guard.js';
import type { WebhooksService } from './webhooks.service.js';

const uuid = z.uuid({ error: 'must be a UUID' });
const tenantParams = z.object({ id: uuid });
const endpointParams = z.object({ id: uuid, endpoint_id: uuid });
const deliveryParams = endpointParams.extend({
  delivery_id: z.coerce
    .number({ error: 'must be a delivery id' })
    .int('must be a delivery id')
    .min(1)
    .max(2 ** 53),
});

function endpointView(e: WebhookEndpointRow): WebhookEndpointView {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    events: e.events,
    enabled: e.enabled,
    disabled_reason: e.disabled_reason,
    created_at: e.created_at.toISOString(),
    updated_at: e.updated_at.toISOString(),
  };
}

function deliveryView(d: WebhookDeliveryRow): WebhookDeliveryView {
  return {
    id: d.id,
    event_type: d.event_type,
    webhook_id: d.webhook_id,
    status: d.status,
    attempts: d.attempts,
    last_status_code: d.last_status_code,
    last_duration_ms: d.last_duration_ms,
    last_error: d.last_error,
    last_attempt_at: d.last_attempt_at?.toISOString() ?? null,
    created_at: d.created_at.toISOString(),
  };
}

const withSecret = (o: { endpoint: WebhookEndpointRow; secret: string }): WebhookEndpointWithSecret => ({
  ...endpointView(o.endpoint),
  secret: o.secret,
});

export function registerWebhookRoutes(
  app: FastifyInstance,
  catalogue: RouteCatalogue,
  deps: ControlDeps & { webhooks: WebhooksService },
): void {
  const managers = [authenticate(deps), requireRole('owner', 'admin')];
  const actor = (req: Parameters<typeof assertOwnTenant>[0], id: string) => ({
    principal: assertOwnTenant(req, id),
    ip: req.ip,
  });
  const url = z
    .string({ error: 'is required' })
    .max(2000, 'must be at most 2000 characters')
    .refine((u) => deps.webhooks.acceptsUrl(u), {
      error:
        deps.config.WEBHOOK_ALLOW_LOOPBACK === 'on'
          ? 'must be an https URL of a public host (or a loopback address)'
          : 'must be an https URL of a public host',
    });
  const events = z
    .array(z.enum(WEBHOOK_EVENT_TYPES, { error: `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` }), {
      error: 'must be a list of event types',
    })
    .min(1, 'must name at least one event')
    .max(WEBHOOK_EVENT_TYPES.length * 2, 'has too many entries');
  const description = z.string().max(200, 'must be at most 200 characters').nullable().optional();
  const common = { tags: ['webhooks'], security: 'bearer' as const, preHandler: managers };

  route(app, catalogue, {
    ...common,
    method: 'GET',
    url: '/api/tenants/:id/webhooks',
    summary: "The tenant's outbound webhook endpoints (never their secrets)",
    params: tenantParams,
    query: z.object(pageQuery),
    responses: { '200': 'Endpoints', '403': 'PLAN_FEATURE_MISSING (api_access), ROLE_FORBIDDEN' },
    handler: async ({ params, query }, req) => {
      const all = await deps.webhooks.list(actor(req, params.id).principal.tenantId);
      const start = (query.page - 1) * query.page_size;
      return {
        items: all.slice(start, start + query.page_size).map(endpointView),
        page: query.page,
        page_size: query.page_size,
        total: all.length,
      };
    },
  });

  route(app, catalogue, {
    ...common,
    method: 'POST',
    url: '/api/tenants/:id/webhooks',
    summary: 'Add an endpoint subscribed to events; the answer shows its signing secret, once',
    params: tenantParams,
    body: z.strictObject({ url, events, description }),
    responses: { '201': 'Added, with `secret` (whsec_…)', '403': 'PLAN_FEATURE_MISSING (api_access)' },
    handler: async ({ params, body }, req, reply) =>
      reply.code(201).send(withSecret(await deps.webhooks.create(actor(req, params.id), body))),
  });

  route(app, catalogue, {
    ...common,
    method: 'GET',
    url: '/api/tenants/:id/webhooks/:endpoint_id',
    summary: 'One endpoint (never its secret)',
    params: endpointParams,
    responses: { '200': 'The endpoint', '404': 'NOT_FOUND' },
    handler: async ({ params }, req) =>
      endpointView(await deps.webhooks.get(actor(req, params.id).principal.tenantId, params.endpoint_id)),
  });

  route(app, catalogue, {
    ...common,
    method: 'PATCH',
    url: '/api/tenants/:id/webhooks/:endpoint_id',
    summary: 'Change the URL, events or description; disable or enable (a disabled endpoint is sent nothing)',
    params: endpointParams,
    body: z.strictObject({
      url: url.optional(),
      events: events.optional(),
      description,
      enabled: z.boolean({ error: 'must be true or false' }).optional(),
    }),
    responses: { '200': 'The endpoint', '404': 'NOT_FOUND' },
    handler: async ({ params, body }, req) =>
      endpointView(await deps.webhooks.change(actor(req, params.id), params.endpoint_id, body)),
  });

  route(app, catalogue, {
    ...common,
    method: 'DELETE',
    url: '/api/tenants/:id/webhooks/:endpoint_id',
    summary: 'Remove an endpoint and its delivery log',
    params: endpointParams,
    responses: { '204': 'Removed', '404': 'NOT_FOUND' },
    handler: async ({ params }, req, reply) => {
      await deps.webhooks.remove(actor(req, params.id), params.endpoint_id);
      return reply.code(204).send();
    },
  });

  route(app, catalogue, {
    ...common,
    method: 'POST',
    url: '/api/tenants/:id/webhooks/:endpoint_id/rotate-secret',
    summary: 'Replace the signing secret at once; the answer shows the new one, once',
    params: endpointParams,
    responses: { '200': 'The endpoint with its new `secret`', '404': 'NOT_FOUND' },
    handler: async ({ params }, req) =>
      withSecret(await deps.webhooks.rotateSecret(actor(req, params.id), params.endpoint_id)),
  });

  route(app, catalogue, {
    ...common,
    method: 'GET',
    url: '/api/tenants/:id/webhooks/:endpoint_id/deliveries',
    summary: "The endpoint's delivery log, newest first: status, attempts, last response code and duration",
    params: endpointParams,
    query: z.object(pageQuery),
    responses: { '200': 'Deliveries', '404': 'NOT_FOUND' },
    handler: async ({ params, query }, req) => {
      const page = await deps.webhooks.deliveries(actor(req, params.id).principal.tenantId, params.endpoint_id, query);
      return { items: page.rows.map(deliveryView), page: query.page, page_size: query.page_size, total: page.total };
    },
  });

  route(app, catalogue, {
    ...common,
    method: 'POST',
    url: '/api/tenants/:id/webhooks/:endpoint_id/deliveries/:delivery_id/replay',
    summary: 'Send one delivery again (same webhook-id, signed afresh); Idempotency-Key honoured',
    params: deliveryParams,
    responses: {
      '201': 'Queued',
      '404': 'NOT_FOUND',
      '409': 'WEBHOOK_ENDPOINT_DISABLED',
      '422': 'IDEMPOTENCY_KEY_REUSED',
    },
    handler: async ({ params }, req, reply) =>
      sendAnswer(
        reply,
        await deps.webhooks.replay(
          actor(req, params.id),
          params.endpoint_id,
          params.delivery_id,
          idempotencyKeyOf(req.headers['idempotency-key']),
        ),
      ),
  });
}
