/**
 * Technicians' calendar feeds: the technician (field app) or the office (console) makes, rotates and
 * revokes a feed URL; the feed itself is public at /calendar/<token>.ics, the token its only credential.
 */
import { sendAnswer } from '@platform/http-kit';
import { idempotencyKeyOf } from '@platform/intake';
import { AppError } from '@platform/kernel';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

import type { ControlDeps } from '../../deps.js';
import { route, type RouteCatalogue } from '../../openapi/routes.js';
import { authenticate, principalOf } from '../auth/auth.guard.js';
import { CALENDAR_FEED_PATH } from './calendar.service.js';

const technicianParams = z.object({
  id: z.union([z.literal('me'), z.uuid()], { error: 'must be a UUID or me' }),
});

export function registerCalendarRoutes(app: FastifyInstance, catalogue: RouteCatalogue, deps: ControlDeps): void {
  const feeds = deps.calendar;
  const base = { tags: ['calendar'], security: 'bearer' as const, preHandler: [authenticate(deps)] };
  const url = '/technicians/:id/calendar-feed';
  route(app, catalogue, {
    ...base,
    method: 'GET',
    url,
    summary: "Whether a technician's calendar feed is on (`me`: the caller); a technician sees only their own",
    params: technicianParams,
    handler: ({ params }, req) => feeds.state(principalOf(req), params.id),
  });
  route(app, catalogue, {
    ...base,
    method: 'POST',
    url,
    summary:
      "Make the technician's calendar feed, or give it a new secret URL (the old one stops); the URL is shown once (Idempotency-Key honoured: a retry answers the same URL)",
    params: technicianParams,
    responses: { '200': 'The feed and its URL', '422': 'IDEMPOTENCY_KEY_REUSED' },
    handler: async ({ params }, req, reply) =>
      sendAnswer(
        reply,
        await feeds.rotate(principalOf(req), params.id, idempotencyKeyOf(req.headers['idempotency-key'])),
      ),
  });
  route(app, catalogue, {
    ...base,
    method: 'DELETE',
    url,
    summary: "Revoke the technician's calendar feed: its URL answers 404 from now on",
    params: technicianParams,
    handler: ({ params }, req) => feeds.revoke(principalOf(req), params.id),
  });
  route(app, catalogue, {
    method: 'GET',
    url: `${CALENDAR_FEED_PATH}/:file`,
    summary: "A technician's jobs as an iCalendar (RFC 5545) feed; the token in the URL is the credential",
    tags: ['calendar'],
    security: 'none',
    params: z.object({ file: z.string().regex(/^[A-Za-z0-9_-]{1,64}\.ics$/, 'must be <token>.ics') }),
    responses: { '200': 'text/calendar', '404': 'Unknown, rotated or revoked feed' },
    handler: async ({ params }, req, reply) => {
      // Through a tenant's host (the frontend's proxy names it), only that tenant's feeds open.
      const host = req.headers['x-tenant-id'];
      const ics = await feeds.feed(params.file.slice(0, -4), typeof host === 'string' ? host : undefined);
      if (ics === undefined) throw new AppError('NOT_FOUND', 'No such calendar feed.');
      return reply
        .type('text/calendar; charset=utf-8')
        .header('cache-control', 'private, no-store')
        .header('referrer-policy', 'no-referrer')
        .send(ics);
    },
  });
}
