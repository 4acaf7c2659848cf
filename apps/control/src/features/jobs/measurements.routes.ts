/** `/jobs/{id}/measurements`: a measure job's windows and "Send to office" (docs/control-plane.md "Measuring visits"). */
import type { FastifyInstance } from 'fastify';

import type { ControlDeps } from '../../deps.js';
import { route, type RouteCatalogue } from '../../openapi/routes.js';
import { authenticate, principalOf } from '../auth/auth.guard.js';
import { jobIdParams } from './jobs.schemas.js';
import { measurementBody, measurementParams } from './measurements.schemas.js';

export function registerMeasurementRoutes(app: FastifyInstance, catalogue: RouteCatalogue, deps: ControlDeps): void {
  const m = deps.jobs.measurements;
  // The measurer (the job's technician) and the office alike; a technician only on their own jobs.
  const base = { tags: ['jobs'], security: 'bearer' as const, preHandler: [authenticate(deps)] };

  route(app, catalogue, {
    ...base,
    method: 'GET',
    url: '/jobs/:id/measurements',
    summary: "A measure job's windows, each priced or flagged, the grids to price with, and its draft quote",
    params: jobIdParams,
    handler: async ({ params }, req) => m.list(principalOf(req), params.id),
  });
  route(app, catalogue, {
    ...base,
    method: 'PUT',
    url: '/jobs/:id/measurements/:measurement_id',
    summary: "Record or replace one measured window (the id is the phone's; a resend is the same window)",
    params: measurementParams,
    body: measurementBody,
    handler: async ({ params, body }, req) => m.put(principalOf(req), params.id, params.measurement_id, body),
  });
  route(app, catalogue, {
    ...base,
    method: 'DELETE',
    url: '/jobs/:id/measurements/:measurement_id',
    summary: 'Remove one measured window (removing it again changes nothing)',
    params: measurementParams,
    handler: async ({ params }, req) => m.remove(principalOf(req), params.id, params.measurement_id),
  });
  route(app, catalogue, {
    ...base,
    method: 'POST',
    url: '/jobs/:id/measurements/quote',
    summary:
      "Send to office: the job's one draft quote from its windows (priced from the grids; flagged ones listed), made or brought up to date while a draft",
    params: jobIdParams,
    responses: { '201': 'The draft quote was made' },
    handler: async ({ params }, req, reply) => {
      const a = await m.sendToOffice(principalOf(req), params.id);
      return reply.code(a.updated ? 200 : 201).send(a);
    },
  });
}
