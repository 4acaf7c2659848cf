/** GET /search: the office's global search over customers, leads, quotes and jobs. Office, admin, owner. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

import type { ControlDeps } from '../../deps.js';
import { route, type RouteCatalogue } from '../../openapi/routes.js';
import { authenticate, principalOf, requireRole } from '../auth/auth.guard.js';

export function registerOfficeSearchRoutes(app: FastifyInstance, catalogue: RouteCatalogue, deps: ControlDeps): void {
  route(app, catalogue, {
    tags: ['customers'],
    security: 'bearer',
    preHandler: [authenticate(deps), requireRole('owner', 'admin', 'office')],
    method: 'GET',
    url: '/search',
    summary:
      'Customers, leads, quotes and jobs matching a name, phone (any punctuation), email, address or order reference; 5 of each',
    query: z.object({
      q: z.string().trim().min(2, 'must be at least 2 characters').max(100, 'must be at most 100 characters'),
    }),
    handler: async ({ query }, req) => deps.officeSearch.search(principalOf(req).tenantId, query.q),
  });
}
