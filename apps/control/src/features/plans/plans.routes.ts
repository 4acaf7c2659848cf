/** `GET|PUT /api/tenants/{id}/plan`: the plan, its limits and features, and the tenant's usage. */
import { withTenant } from '@platform/db';
import { PLAN_IDS, PLANS } from '@platform/tenancy';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

import type { ControlDeps } from '../../deps.js';
import { route, type RouteCatalogue, uuidParam } from '../../openapi/routes.js';
import { assertOwnTenant, authenticate, ownTenantRoute, requireRole } from '../auth/auth.guard.js';

export function registerPlanRoutes(app: FastifyInstance, catalogue: RouteCatalogue, deps: ControlDeps): void {
  const signedIn = authenticate(deps);
  const view = async (tenantId: string) =>
    withTenant(deps.db, tenantId, async (tx) => {
      const plan = await deps.plans.plan(tx, tenantId);
      return {
        plan: plan.id,
        name: plan.name,
        prices: plan.prices,
        limits: plan.limits,
        features: plan.features,
        usage: await deps.plans.usage(tx, tenantId, deps.clock.now()),
        plans: PLAN_IDS.map((id) => {
          const { name, prices, limits, features } = PLANS[id];
          return { id, name, prices, limits, features };
        }),
      };
    });
  route(app, catalogue, {
    ...ownTenantRoute(deps),
    method: 'GET',
    url: '/api/tenants/:id/plan',
    summary: "The tenant's plan, limits, features and usage this month",
    tags: ['plans'],
    handler: async ({ params }, req) => {
      assertOwnTenant(req, params.id);
      return view(params.id);
    },
  });
  route(app, catalogue, {
    method: 'PUT',
    url: '/api/tenants/:id/plan',
    summary: 'Change plan (immediate; a downgrade the team does not fit is refused with what to remove first)',
    tags: ['plans'],
    security: 'bearer',
    preHandler: [signedIn, requireRole('owner')],
    params: uuidParam('id'),
    body: z.strictObject({ plan: z.enum(PLAN_IDS) }),
    handler: async ({ params, body }, req) => {
      await deps.planChanges.change(assertOwnTenant(req, params.id), body.plan, req.ip);
      return view(params.id);
    },
  });
}
