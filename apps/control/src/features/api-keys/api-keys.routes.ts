/**
 * A tenant's REST API keys from the owner's console (owners and admins; plan feature `api_access`):
 *   GET    /api/tenants/{id}/api-keys                          → keys, newest first (never a secret)
 *   POST   /api/tenants/{id}/api-keys {description, scopes?}   → 201 with `key` (shown once)
 *   DELETE /api/tenants/{id}/api-keys/{key_id}                 → 204; the key fails on the REST API at once
 */
import { type ApiKeyView, DEFAULT_API_KEY_SCOPES } from '@platform/contracts';
import type { ApiKeyInfo } from '@platform/credentials';
import { scopeProblem } from '@platform/credentials';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

import type { ControlDeps } from '../../deps.js';
import { route, type RouteCatalogue } from '../../openapi/routes.js';
import { assertOwnTenant, authenticate, requireRole } from '../auth/auth.guard.js';
import type { ConsoleApiKeys } from './api-keys.service.js';

const uuid = z.uuid({ error: 'must be a UUID' });
const tenantParams = z.strictObject({ id: uuid });
const keyParams = z.strictObject({
  id: uuid,
  key_id: z.coerce
    .number({ error: 'must be a key id' })
    .int('must be a key id')
    .min(1)
    .max(2 ** 53),
});
const scope = z
  .string({ error: 'must be a scope' })
  .max(120, 'must be at most 120 characters')
  .superRefine((s, ctx) => {
    const why = scopeProblem(s);
    if (why) ctx.addIssue({ code: 'custom', message: why });
  });
const body = z.strictObject({
  description: z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'is required')
    .max(200, 'must be at most 200 characters')
    .refine((s) => !s.includes('\u0000'), 'must not contain NUL'),
  scopes: z
    .array(scope, { error: 'must be a list of scopes' })
    .min(1, 'must name at least one scope')
    .max(40)
    .optional(),
});

const view = (k: ApiKeyInfo): ApiKeyView => ({
  id: k.id,
  description: k.description,
  prefix: k.prefix,
  scopes: k.scopes,
  created_at: k.createdAt,
  last_used_at: k.lastUsedAt,
  revoked_at: k.revokedAt,
});

export function registerApiKeyRoutes(
  app: FastifyInstance,
  catalogue: RouteCatalogue,
  deps: ControlDeps & { apiKeys: ConsoleApiKeys },
): void {
  const common = {
    tags: ['api-keys'],
    security: 'bearer' as const,
    preHandler: [authenticate(deps), requireRole('owner', 'admin')],
  };
  const actor = (req: Parameters<typeof assertOwnTenant>[0], id: string) => ({
    principal: assertOwnTenant(req, id),
    ip: req.ip,
  });

  route(app, catalogue, {
    ...common,
    method: 'GET',
    url: '/api/tenants/:id/api-keys',
    summary: "The tenant's REST API keys, newest first, revoked ones included (never a key itself)",
    params: tenantParams,
    responses: { '200': 'Keys', '403': 'PLAN_FEATURE_MISSING (api_access), ROLE_FORBIDDEN' },
    handler: async ({ params }, req) => ({
      items: (await deps.apiKeys.list(actor(req, params.id).principal.tenantId)).map(view),
    }),
  });

  route(app, catalogue, {
    ...common,
    method: 'POST',
    url: '/api/tenants/:id/api-keys',
    summary:
      'Make a key for the REST API (default scopes: reading the main models, writing contacts and leads); the answer shows it once',
    params: tenantParams,
    body,
    responses: {
      '201': 'Made, with `key` (erpk_…), shown only in this answer',
      '403': 'PLAN_FEATURE_MISSING (api_access)',
    },
    handler: async ({ params, body: b }, req, reply) => {
      const { key, info } = await deps.apiKeys.create(actor(req, params.id), {
        description: b.description,
        scopes: b.scopes ?? [...DEFAULT_API_KEY_SCOPES],
      });
      return reply.code(201).send({ ...view(info), key });
    },
  });

  route(app, catalogue, {
    ...common,
    method: 'DELETE',
    url: '/api/tenants/:id/api-keys/:key_id',
    summary: 'Revoke a key: the REST API refuses it from the next request',
    params: keyParams,
    responses: { '204': 'Revoked', '404': 'NOT_FOUND (unknown, of another tenant, or already revoked)' },
    handler: async ({ params }, req, reply) => {
      await deps.apiKeys.revoke(actor(req, params.id), params.key_id);
      return reply.code(204).send();
    },
  });
}
