/** `/jobs`: the tenant's field service orders (control-plane contract "Jobs"; docs/control-plane.md "Jobs"). */
import { sendAnswer } from '@platform/http-kit';
import { idempotencyKeyOf } from '@platform/intake';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';

import type { ControlDeps } from '../../deps.js';
import { route, type RouteCatalogue } from '../../openapi/routes.js';
import { authenticate, principalOf, requireRole } from '../auth/auth.guard.js';
import type { Answer, MutationContext } from './job-mutation.js';
import * as s from './jobs.schemas.js';
import { registerMeasurementRoutes } from './measurements.routes.js';

function contextOf(req: FastifyRequest): MutationContext {
  const ifMatch = req.headers['if-match'];
  return {
    principal: principalOf(req),
    ip: req.ip,
    idempotencyKey: idempotencyKeyOf(req.headers['idempotency-key']),
    ifMatch: typeof ifMatch === 'string' && ifMatch.trim() ? ifMatch.trim() : undefined,
  };
}

export function registerJobRoutes(app: FastifyInstance, catalogue: RouteCatalogue, deps: ControlDeps): void {
  const { reader, commands, records } = deps.jobs;
  const anyone = [authenticate(deps)];
  const office = [authenticate(deps), requireRole('owner', 'admin', 'office')];
  const base = { tags: ['jobs'], security: 'bearer' as const };

  route(app, catalogue, {
    ...base,
    method: 'GET',
    url: '/jobs',
    summary:
      'Jobs by day, range, technician, stage and branch; technicians in route order (a technician sees their own)',
    preHandler: anyone,
    query: s.listQuery,
    handler: ({ query }, req) => reader.list(principalOf(req), query),
  });
  route(app, catalogue, {
    ...base,
    method: 'GET',
    url: '/jobs/:id',
    summary: 'One job',
    preHandler: anyone,
    params: s.jobIdParams,
    handler: async ({ params }, req, reply) => {
      const job = await reader.get(principalOf(req), params.id);
      return reply.header('etag', `"${job.version}"`).send(job);
    },
  });
  route(app, catalogue, {
    ...base,
    method: 'POST',
    url: '/jobs',
    summary: "Create a job in the tenant's ERP (counts against the plan's jobs per month)",
    preHandler: office,
    body: s.createBody,
    responses: { '201': 'The job' },
    handler: async ({ body }, req, reply) => sendAnswer(reply, await commands.create(contextOf(req), body)),
  });
  const mutation = <S extends z.ZodType>(
    name: string,
    body: S,
    summary: string,
    pre: typeof anyone,
    run: (ctx: MutationContext, id: string, body: z.infer<S>) => Promise<Answer>,
  ) =>
    route(app, catalogue, {
      ...base,
      method: 'POST',
      url: `/jobs/:id/${name}`,
      summary,
      preHandler: pre,
      params: s.jobIdParams,
      body,
      handler: async ({ params, body: b }, req, reply) => sendAnswer(reply, await run(contextOf(req), params.id, b)),
    });
  mutation('schedule', s.scheduleBody, 'Reschedule (and set the route order)', office, (c, id, b) =>
    commands.schedule(c, id, b),
  );
  mutation('assign', s.assignBody, 'Assign to a technician of the tenant', office, (c, id, b) =>
    commands.assign(c, id, b),
  );
  mutation('stage', s.stageBody, 'Move to another stage', anyone, (c, id, b) => commands.stage(c, id, b));
  mutation('complete', s.completeBody, 'Complete with a resolution (the team chat hears of it)', anyone, (c, id, b) =>
    commands.complete(c, id, b),
  );
  mutation('notes', s.noteBody, 'Add a note', anyone, (c, id, b) => records.note(c, id, b));
  mutation('uploads', s.uploadBody, 'A presigned PUT URL for a photo or the signature', anyone, (c, id, b) =>
    records.upload(c, id, b),
  );
  mutation(
    'attachments',
    s.attachmentBody,
    'Register an uploaded photo or signature (once per key)',
    anyone,
    (c, id, b) => records.attach(c, id, b),
  );
  route(app, catalogue, {
    ...base,
    method: 'GET',
    url: '/jobs/:id/history',
    summary: 'What was done to the job through the platform (created, scheduled, stages, completed…), oldest first',
    preHandler: anyone,
    params: s.jobIdParams,
    handler: async ({ params }, req) => deps.jobs.history.of(principalOf(req), params.id),
  });
  route(app, catalogue, {
    ...base,
    method: 'POST',
    url: '/jobs/:id/downloads',
    summary: "A short-lived download URL (5 minutes) of one of the job's photos or its signature",
    preHandler: anyone,
    params: s.jobIdParams,
    body: s.downloadBody,
    handler: async ({ params, body }, req, reply) =>
      reply
        .header('cache-control', 'no-store')
        .send(await deps.jobs.downloads.url(principalOf(req), params.id, body.key)),
  });
  route(app, catalogue, {
    ...base,
    method: 'PATCH',
    url: '/jobs/:id/checklist/:item_id',
    summary: 'Tick or untick a checklist item',
    preHandler: anyone,
    params: s.checklistParams,
    body: s.checklistBody,
    handler: async ({ params, body }, req, reply) =>
      sendAnswer(reply, await records.checklist(contextOf(req), params.id, params.item_id, body)),
  });
  registerMeasurementRoutes(app, catalogue, deps);
}
