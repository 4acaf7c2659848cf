/** /crm/leads: the tenant's leads and opportunities (list, read, update, convert). Office, admin, owner. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

import type { ControlDeps } from '../../deps.js';
import { pageQuery, route, type RouteCatalogue } from '../../openapi/routes.js';
import { authenticate, principalOf, requireRole } from '../auth/auth.guard.js';

const idParam = z.object({
  id: z.coerce.number().int('must be a lead id').positive('must be a lead id').max(2_147_483_647),
});

export function registerCrmRoutes(app: FastifyInstance, catalogue: RouteCatalogue, deps: ControlDeps): void {
  const base = {
    tags: ['crm'],
    security: 'bearer' as const,
    preHandler: [authenticate(deps), requireRole('owner', 'admin', 'office')],
  };
  route(app, catalogue, {
    ...base,
    method: 'GET',
    url: '/crm/leads',
    summary: 'Leads and opportunities, newest first (filters: stage id or name, type, free text, branch)',
    query: z.object({
      stage: z.string().trim().max(100).optional(),
      type: z.enum(['lead', 'opportunity'], 'must be lead or opportunity').optional(),
      q: z.string().trim().max(100).optional(),
      branch: z.uuid({ error: 'must be a branch id' }).optional(),
      ...pageQuery,
    }),
    handler: async ({ query }, req) => {
      const { page, page_size, ...f } = query;
      const filter = Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined && v !== ''));
      return deps.crm.list(principalOf(req), filter, page, page_size);
    },
  });
  const stageRule = z.union([z.string().trim().min(1, 'must name a stage').max(100), z.null()]);
  route(app, catalogue, {
    ...base,
    method: 'GET',
    url: '/crm/pipeline',
    summary: 'Where a sent and an accepted quote move their lead (the stage each event applies now)',
    handler: async (_i, req) => deps.pipeline.rules(principalOf(req).tenantId),
  });
  route(app, catalogue, {
    ...base,
    preHandler: [authenticate(deps), requireRole('owner', 'admin')],
    method: 'PUT',
    url: '/crm/pipeline',
    summary: 'Set the stage of each event by name (null: do not move; "default": the ERP\'s own stage)',
    body: z.strictObject({ quote_sent: stageRule.optional(), quote_accepted: stageRule.optional() }),
    handler: async ({ body }, req) => {
      const patch = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
      return deps.pipeline.setRules(principalOf(req), patch, req.ip);
    },
  });
  route(app, catalogue, {
    ...base,
    method: 'GET',
    url: '/crm/stages',
    summary: "The pipeline's stages in order (ids for moving a lead)",
    handler: async (_i, req) => deps.crm.stages(principalOf(req).tenantId),
  });
  route(app, catalogue, {
    ...base,
    method: 'GET',
    url: '/crm/leads/:id',
    summary: 'One lead or opportunity',
    params: idParam,
    handler: async ({ params }, req) => deps.crm.get(principalOf(req).tenantId, params.id),
  });
  route(app, catalogue, {
    ...base,
    method: 'PATCH',
    url: '/crm/leads/:id',
    summary: 'Move to a stage, assign (ERP user id, null to unassign), set priority or notes',
    params: idParam,
    body: z.strictObject({
      stage_id: z.number().int().positive('must be a stage id').optional(),
      user_id: z.number().int().positive('must be an ERP user id').nullable().optional(),
      priority: z.enum(['0', '1', '2', '3'], 'must be 0, 1, 2 or 3').optional(),
      description: z.string().max(10_000, 'must be at most 10000 characters').optional(),
    }),
    handler: async ({ params, body }, req) => deps.crm.update(principalOf(req), params.id, body, req.ip),
  });
  route(app, catalogue, {
    ...base,
    method: 'POST',
    url: '/crm/leads/:id/convert',
    summary: 'Convert a lead to an opportunity with its customer (partner found by email or created)',
    params: idParam,
    handler: async ({ params }, req) => deps.crm.convert(principalOf(req), params.id, req.ip),
  });
}
