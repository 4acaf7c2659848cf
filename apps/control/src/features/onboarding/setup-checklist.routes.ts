/** `GET /api/tenants/{id}/setup-checklist`: the office home's first-run checklist (owners and admins). */
import type { FastifyInstance } from 'fastify';

import type { ControlDeps } from '../../deps.js';
import { route, type RouteCatalogue } from '../../openapi/routes.js';
import { assertOwnTenant, ownTenantRoute, requireRole } from '../auth/auth.guard.js';

export function registerSetupChecklistRoutes(app: FastifyInstance, catalogue: RouteCatalogue, deps: ControlDeps): void {
  const own = ownTenantRoute(deps);
  route(app, catalogue, {
    ...own,
    preHandler: [...own.preHandler, requireRole('owner', 'admin')],
    method: 'GET',
    url: '/api/tenants/:id/setup-checklist',
    summary:
      'What the company still has to set up (company, branding, a price grid, a technician, a domain, integrations)',
    tags: ['tenants'],
    handler: async ({ params }, req) => {
      assertOwnTenant(req, params.id);
      return deps.onboarding.get(params.id);
    },
  });
}
