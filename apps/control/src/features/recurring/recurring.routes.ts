/** `/jobs/{id}/series`: a job's repeat series (docs/control-plane.md, "Recurring jobs"). */
import type { FastifyInstance } from 'fastify';

import type { ControlDeps } from '../../deps.js';
import { route, type RouteCatalogue } from '../../openapi/routes.js';
import { authenticate, principalOf, requireRole } from '../auth/auth.guard.js';
import { jobIdParams } from '../jobs/jobs.schemas.js';
import * as s from './recurring.schemas.js';

export function registerRecurringRoutes(app: FastifyInstance, catalogue: RouteCatalogue, deps: ControlDeps): void {
  const series = deps.recurring.series;
  const office = [authenticate(deps), requireRole('owner', 'admin', 'office')];
  const base = { tags: ['jobs'], security: 'bearer' as const, preHandler: office, params: jobIdParams };

  route(app, catalogue, {
    ...base,
    method: 'GET',
    url: '/jobs/:id/series',
    summary:
      "The job's repeat series (made from it, or the one it is an occurrence of) and whether the plan includes them",
    handler: ({ params }, req) => series.get(principalOf(req), params.id),
  });
  route(app, catalogue, {
    ...base,
    method: 'POST',
    url: '/jobs/:id/series/preview',
    summary: 'The next five dates an RFC 5545 rule would give this job (nothing is saved)',
    body: s.previewBody,
    handler: ({ params, body }, req) => series.preview(principalOf(req), params.id, body.rule),
  });
  route(app, catalogue, {
    ...base,
    method: 'POST',
    url: '/jobs/:id/series',
    summary: 'Repeat the job by an RFC 5545 rule; occurrences within the horizon become jobs',
    body: s.createSeriesBody,
    responses: { '201': 'The series', '403': 'PLAN_FEATURE_MISSING (recurring_jobs)', '409': 'JOB_SERIES_EXISTS' },
    handler: async ({ params, body }, req, reply) =>
      reply.code(201).send(await series.create(principalOf(req), params.id, body)),
  });
  route(app, catalogue, {
    ...base,
    method: 'PATCH',
    url: '/jobs/:id/series',
    summary: 'Change the whole series (a new rule applies to occurrences not generated yet)',
    body: s.updateSeriesBody,
    responses: { '200': 'The series', '409': 'JOB_SERIES_ENDED' },
    handler: ({ params, body }, req) => series.update(principalOf(req), params.id, body),
  });
  const action = (name: 'pause' | 'resume' | 'end', summary: string, responses: Record<string, string>) =>
    route(app, catalogue, {
      ...base,
      method: 'POST',
      url: `/jobs/:id/series/${name}`,
      summary,
      responses: { '200': 'The series', ...responses },
      handler: ({ params }, req) => series[name](principalOf(req), params.id),
    });
  action('pause', 'Pause the series (no new occurrences)', { '409': 'JOB_SERIES_ENDED' });
  action('resume', 'Resume a paused series', {
    '403': 'PLAN_FEATURE_MISSING (recurring_jobs)',
    '409': 'JOB_SERIES_ENDED',
  });
  action('end', 'End the series for good (jobs already made stay)', {});
}
