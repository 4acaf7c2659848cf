/**
 * A tenant's branches (docs/control-plane.md, "Branches"):
 *   GET    /api/tenants/{id}/branches                 → {items} (any member: the inbox's filter names them)
 *   POST   /api/tenants/{id}/branches                 → 201 (owner, admin; plan multi_location)
 *   PUT    /api/tenants/{id}/branches/{branch_id}     → the branch
 *   DELETE /api/tenants/{id}/branches/{branch_id}     → 204
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

import type { ControlDeps } from '../../deps.js';
import { route, type RouteCatalogue, uuidParam } from '../../openapi/routes.js';
import { assertOwnTenant, authenticate, ownTenantRoute, requireRole } from '../auth/auth.guard.js';
import { isTimeZone } from '../tenants/tenants.schemas.js';

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .nullable()
    .optional()
    .transform((v) => v || null);

const branchBody = z.strictObject({
  name: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  address: optionalText(1000),
  phone: optionalText(20),
  time_zone: z
    .string()
    .max(64, 'must be at most 64 characters')
    .refine(isTimeZone, 'must be an IANA time zone such as America/Denver')
    .nullable()
    .optional()
    .transform((v) => v ?? null),
  zip_codes: z
    .array(
      z
        .string()
        .trim()
        .regex(/^[0-9A-Za-z][0-9A-Za-z -]{1,9}$/, 'must be ZIP or postal codes such as 80211'),
    )
    .max(500, 'must be at most 500 codes')
    .transform((zips) => [...new Set(zips)]),
  is_default: z.boolean('must be true or false').optional(),
  member_ids: z
    .array(z.uuid({ error: 'must be user ids' }))
    .max(200)
    .optional(),
});

const ids = z.object({ id: z.uuid({ error: 'must be a UUID' }), branch_id: z.uuid({ error: 'must be a UUID' }) });

export function registerBranchRoutes(app: FastifyInstance, catalogue: RouteCatalogue, deps: ControlDeps): void {
  const managers = [authenticate(deps), requireRole('owner', 'admin')];
  const common = { tags: ['branches'], security: 'bearer' as const };
  route(app, catalogue, {
    ...ownTenantRoute(deps),
    method: 'GET',
    url: '/api/tenants/:id/branches',
    summary: "The tenant's branches, default first, with the ZIP codes each serves and its members",
    tags: ['branches'],
    handler: async ({ params }, req) => {
      assertOwnTenant(req, params.id);
      return { items: await deps.branches.list(params.id) };
    },
  });
  route(app, catalogue, {
    ...common,
    method: 'POST',
    url: '/api/tenants/:id/branches',
    summary: 'Add a branch (the first becomes the default); a ZIP code belongs to one branch',
    preHandler: managers,
    params: uuidParam('id'),
    body: branchBody,
    handler: async ({ params, body }, req, reply) =>
      reply.code(201).send(await deps.branches.create(assertOwnTenant(req, params.id), body)),
  });
  route(app, catalogue, {
    ...common,
    method: 'PUT',
    url: '/api/tenants/:id/branches/:branch_id',
    summary: 'Change a branch (all its fields; is_default true makes it the default)',
    preHandler: managers,
    params: ids,
    body: branchBody,
    handler: async ({ params, body }, req) =>
      deps.branches.update(assertOwnTenant(req, params.id), params.branch_id, body),
  });
  route(app, catalogue, {
    ...common,
    method: 'DELETE',
    url: '/api/tenants/:id/branches/:branch_id',
    summary: 'Remove a branch (not the default while others exist); its ZIP codes go to the default',
    preHandler: managers,
    params: ids,
    responses: { '204': 'Removed' },
    handler: async ({ params }, req, reply) => {
      await deps.branches.remove(assertOwnTenant(req, params.id), params.branch_id);
      return reply.code(204).send();
    },
  });
}
