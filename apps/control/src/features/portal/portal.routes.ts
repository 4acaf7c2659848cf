/**
 * The customer portal's API (no JWT: the link's token in the path). The frontend, which resolved the
 * request's host, passes that host's tenant as `x-tenant-id`; a token of another tenant is not found.
 */
import { sendAnswer } from '@platform/http-kit';
import { idempotencyKeyOf } from '@platform/intake';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';

import type { ControlDeps } from '../../deps.js';
import { route, type RouteCatalogue } from '../../openapi/routes.js';

// Any string: a token of the wrong shape is simply not found (the same 404 as every bad link).
const tokenParam = z.object({ token: z.string() });
const hostTenant = (req: FastifyRequest) => {
  const v = req.headers['x-tenant-id'];
  return typeof v === 'string' ? v : undefined;
};

export function registerPortalRoutes(app: FastifyInstance, catalogue: RouteCatalogue, deps: ControlDeps): void {
  const base = { tags: ['portal'], security: 'portal' as const, params: tokenParam };
  route(app, catalogue, {
    ...base,
    method: 'GET',
    url: '/portal/quotes/:token',
    summary: "The quote behind a portal link, with the tenant's branding (expired, revoked, unknown: 404)",
    handler: async ({ params }, req, reply) => {
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      return deps.portal.view(hostTenant(req), params.token, req.ip);
    },
  });
  route(app, catalogue, {
    ...base,
    method: 'GET',
    url: '/portal/appointments/:token',
    summary:
      "The appointment behind a job message's link: date and window in the company's zone, technician, stage (expired, revoked, unknown: 404)",
    handler: async ({ params }, req, reply) => {
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      return deps.appointments.view(hostTenant(req), params.token);
    },
  });
  route(app, catalogue, {
    ...base,
    method: 'GET',
    url: '/portal/appointments/:token/appointment.ics',
    summary: 'The appointment as an iCalendar (RFC 5545) file: "Add to calendar"',
    responses: { '200': 'text/calendar', '404': 'PORTAL_LINK_INVALID' },
    handler: async ({ params }, req, reply) =>
      reply
        .type('text/calendar; charset=utf-8')
        .header('content-disposition', 'attachment; filename="appointment.ics"')
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .send(await deps.appointments.ics(hostTenant(req), params.token)),
  });
  route(app, catalogue, {
    ...base,
    method: 'POST',
    url: '/portal/quotes/:token/accept',
    summary:
      'Accept the quote with a name and a PNG signature (the sale order is confirmed; idempotent; Idempotency-Key honoured)',
    body: z.object({
      name: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
      signature_png_base64: z.string().min(1, 'is required'),
    }),
    handler: async ({ params, body }, req, reply) =>
      sendAnswer(
        reply,
        await deps.portal.accept(
          hostTenant(req),
          params.token,
          body,
          idempotencyKeyOf(req.headers['idempotency-key']),
          req.ip,
        ),
      ),
  });
  route(app, catalogue, {
    ...base,
    method: 'POST',
    url: '/portal/quotes/:token/request-changes',
    summary: 'Ask for changes: a note on the quote in the ERP, where the office sees it',
    body: z.object({
      note: z.string().trim().min(1, 'is required').max(2000, 'must be at most 2000 characters'),
    }),
    responses: { '202': 'Received' },
    handler: async ({ params, body }, req, reply) => {
      const key = idempotencyKeyOf(req.headers['idempotency-key']);
      const r = await deps.portal.requestChanges(hostTenant(req), params.token, body.note, key, req.ip);
      return reply.code(202).header('cache-control', 'no-store').send(r);
    },
  });
  route(app, catalogue, {
    ...base,
    method: 'POST',
    url: '/portal/quotes/:token/deposit-checkout',
    summary:
      "The checkout page of the accepted quote's deposit on the tenant's account (made once: every click answers the same page)",
    responses: { '200': '{url, session_id}', '409': 'DEPOSIT_NOT_DUE', '502': 'PAYMENTS_PROVIDER_FAILED' },
    handler: async ({ params }, req, reply) => {
      reply.header('cache-control', 'no-store');
      return deps.payments.deposit.checkout(hostTenant(req), params.token);
    },
  });
}
