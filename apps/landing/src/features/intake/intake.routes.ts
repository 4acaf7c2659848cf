/** POST /api/estimate and /api/helpdesk: validate, hand to the intake service, answer 201 with the id. */
import { parseOrThrow, sendAnswer } from '@platform/http-kit';
import { idempotencyKeyOf } from '@platform/intake';
import type { FastifyInstance, FastifyRequest } from 'fastify';

import { tenantOf } from '../tenancy/tenant-host.hook.js';
import { estimateSchema, helpdeskSchema } from './intake.schemas.js';
import type { IntakeContext, SubmissionIntakeService } from './submission-intake.service.js';

export function contextOf(req: FastifyRequest): IntakeContext {
  const tenant = tenantOf(req);
  return {
    // The submission belongs to the tenant whose site it was sent from, with that tenant's site name and team.
    tenant: {
      id: tenant.tenantId,
      erpDb: tenant.erpDb,
      siteName: tenant.siteName,
      helpdeskTeamId: tenant.helpdeskTeamId,
    },
    clientIp: req.ip ?? null,
    siteHostname: req.hostname,
    userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'].slice(0, 500) : null,
    gpc: req.headers['sec-gpc'] === '1',
    idempotencyKey: idempotencyKeyOf(req.headers['idempotency-key']),
  };
}

/** The 201 body, so Fastify serialises it with a compiled serializer instead of JSON.stringify. */
const accepted = {
  response: {
    201: {
      type: 'object',
      properties: { id: { type: 'string' }, status: { type: 'string' } },
      required: ['id', 'status'],
    },
  },
} as const;

export function registerIntakeRoutes(app: FastifyInstance, deps: { intake: SubmissionIntakeService }): void {
  app.post('/api/estimate', { schema: accepted }, async (req, reply) => {
    const input = parseOrThrow(estimateSchema, req.body);
    return sendAnswer(reply, await deps.intake.submitEstimate(contextOf(req), input));
  });
  app.post('/api/helpdesk', { schema: accepted }, async (req, reply) => {
    const input = parseOrThrow(helpdeskSchema, req.body);
    return sendAnswer(reply, await deps.intake.submitHelpdesk(contextOf(req), input));
  });
}
