/** `GET /api/audit`: the tenant's audit log, newest first, filtered; owners only. */
import { withTenant } from '@platform/db';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

import type { ControlDeps } from '../../deps.js';
import { pageQuery, route, type RouteCatalogue } from '../../openapi/routes.js';
import { authenticate, principalOf, requireRole } from '../auth/auth.guard.js';

const query = z.strictObject({
  action: z.string().max(80).optional(),
  actor: z.string().max(80).optional(),
  from: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }).optional(),
  to: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }).optional(),
  ...pageQuery,
});

export function registerAuditRoutes(app: FastifyInstance, catalogue: RouteCatalogue, deps: ControlDeps): void {
  route(app, catalogue, {
    method: 'GET',
    url: '/api/audit',
    summary: 'Audit log of the tenant: who did what, when and from where',
    tags: ['audit'],
    security: 'bearer',
    preHandler: [authenticate(deps), requireRole('owner')],
    query,
    handler: async ({ query: q }, req) => {
      const { tenantId } = principalOf(req);
      const { rows, total } = await withTenant(deps.db, tenantId, (tx) =>
        deps.audit.list(tx, tenantId, {
          ...(q.action ? { action: q.action } : {}),
          ...(q.actor ? { actor: q.actor } : {}),
          ...(q.from ? { from: new Date(q.from) } : {}),
          ...(q.to ? { to: new Date(q.to) } : {}),
          limit: q.page_size,
          offset: (q.page - 1) * q.page_size,
        }),
      );
      return {
        items: rows.map((r) => ({
          id: r.id,
          at: r.at,
          actor: { kind: r.actor_kind, id: r.actor_id },
          action: r.action,
          target: r.target_type ? { type: r.target_type, id: r.target_id } : null,
          ip: r.ip,
          detail: r.detail,
        })),
        page: q.page,
        page_size: q.page_size,
        total,
      };
    },
  });
}
