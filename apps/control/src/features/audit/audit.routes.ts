/**
 * The tenant's audit log, owners only:
 *   GET /api/audit?actor&action&from&to&page&page_size → entries newest first, each person named
 *   GET /api/audit/actions                              → the actions the log holds (the screen's filter)
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

import type { ControlDeps } from '../../deps.js';
import { pageQuery, route, type RouteCatalogue } from '../../openapi/routes.js';
import { authenticate, principalOf, requireRole } from '../auth/auth.guard.js';
import type { AuditReader } from './audit-reader.js';

const query = z.strictObject({
  action: z.string().max(80).optional(),
  actor: z.string().max(80).optional(),
  from: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }).optional(),
  to: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }).optional(),
  ...pageQuery,
});

export function registerAuditRoutes(
  app: FastifyInstance,
  catalogue: RouteCatalogue,
  deps: ControlDeps & { auditReader: AuditReader },
): void {
  const common = {
    tags: ['audit'],
    security: 'bearer' as const,
    preHandler: [authenticate(deps), requireRole('owner')],
  };
  route(app, catalogue, {
    ...common,
    method: 'GET',
    url: '/api/audit',
    summary: 'Audit log of the tenant: who (named) did what, when and from where',
    query,
    handler: async ({ query: q }, req) => {
      const page = await deps.auditReader.page(principalOf(req).tenantId, {
        ...(q.action ? { action: q.action } : {}),
        ...(q.actor ? { actor: q.actor } : {}),
        ...(q.from ? { from: new Date(q.from) } : {}),
        ...(q.to ? { to: new Date(q.to) } : {}),
        limit: q.page_size,
        offset: (q.page - 1) * q.page_size,
      });
      return { ...page, page: q.page, page_size: q.page_size };
    },
  });
  route(app, catalogue, {
    ...common,
    method: 'GET',
    url: '/api/audit/actions',
    summary: "The actions in the tenant's audit log, for filtering",
    handler: async (_input, req) => ({ items: await deps.auditReader.actions(principalOf(req).tenantId) }),
  });
}
