/**
 * POST /leads and POST /helpdesk/tickets: signed-in office staff (and owners, admins) record a lead or
 * a ticket for their own tenant; rate-limited per user; Idempotency-Key honoured.
 */
import { sendAnswer } from '@platform/http-kit';
import { idempotencyKeyOf } from '@platform/intake';
import type { FastifyInstance, FastifyRequest } from 'fastify';

import type { ControlDeps } from '../../deps.js';
import { route, type RouteCatalogue } from '../../openapi/routes.js';
import { authenticate, principalOf, requireRole } from '../auth/auth.guard.js';
import { leadBody, ticketBody } from './intake.schemas.js';
import type { IntakeRequest } from './intake.service.js';

const context = (req: FastifyRequest): IntakeRequest => {
  const host = req.headers['x-tenant-id'];
  return {
    key: idempotencyKeyOf(req.headers['idempotency-key']),
    ip: req.ip ?? null,
    hostTenant: typeof host === 'string' ? host : undefined,
  };
};

export function registerIntakeRoutes(app: FastifyInstance, catalogue: RouteCatalogue, deps: ControlDeps): void {
  const limit = { name: 'control-intake', max: deps.config.INTAKE_RATE_LIMIT_PER_MINUTE, windowSeconds: 60 };
  const base = {
    tags: ['intake'],
    security: 'bearer' as const,
    preHandler: [
      authenticate(deps),
      requireRole('owner', 'admin', 'office'),
      async (req: Parameters<ReturnType<typeof authenticate>>[0]) => {
        await deps.limiter.consume(limit, principalOf(req).userId);
      },
    ],
    responses: { '201': 'Accepted: `{id, status}` (id = the platform submission id)' },
  };
  route(app, catalogue, {
    ...base,
    method: 'POST',
    url: '/leads',
    summary: "Record a lead for the tenant's ERP (durable; delivered by the worker with the SITE tag)",
    body: leadBody,
    handler: async ({ body }, req, reply) =>
      sendAnswer(reply, await deps.intake.submitLead(principalOf(req), body, context(req))),
  });
  route(app, catalogue, {
    ...base,
    method: 'POST',
    url: '/helpdesk/tickets',
    summary: "Record a helpdesk ticket for the tenant's helpdesk team (durable)",
    body: ticketBody,
    handler: async ({ body }, req, reply) =>
      sendAnswer(reply, await deps.intake.submitTicket(principalOf(req), body, context(req))),
  });
}
