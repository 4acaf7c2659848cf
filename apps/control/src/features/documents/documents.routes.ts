/**
 * The PDF documents (docs/documents.md): the office's quote and job report, and the customer's quote
 * through their portal link. Each answers application/pdf as an attachment; never cached (a quote not
 * yet sent is drawn as it is now, and a portal link can be revoked).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

import type { ControlDeps } from '../../deps.js';
import { route, type RouteCatalogue, uuidParam } from '../../openapi/routes.js';
import { authenticate, principalOf, requireRole } from '../auth/auth.guard.js';
import { registerBillingDocumentRoutes } from './billing-documents.routes.js';
import { hostTenant, sendPdf } from './pdf-reply.js';

export function registerDocumentRoutes(app: FastifyInstance, catalogue: RouteCatalogue, deps: ControlDeps): void {
  const refused = { '403': 'The plan has no pdf_reports (PLAN_FEATURE_MISSING)', '404': 'Not found' };
  route(app, catalogue, {
    method: 'GET',
    url: '/sales/quotes/:id/pdf',
    summary: 'The quote as a PDF: the document it was sent as, or (not sent yet) as it is now; needs pdf_reports',
    tags: ['sales'],
    security: 'bearer',
    preHandler: [authenticate(deps), requireRole('owner', 'admin', 'office')],
    params: uuidParam('id'),
    responses: { '200': 'application/pdf', ...refused },
    handler: async ({ params }, req, reply) => sendPdf(reply, await deps.documents.quote(principalOf(req), params.id)),
  });
  route(app, catalogue, {
    method: 'GET',
    url: '/jobs/:id/report.pdf',
    summary:
      "The job's report as a PDF (windows, checklist, notes, photos, signature); office roles and its technician",
    tags: ['jobs'],
    security: 'bearer',
    preHandler: [authenticate(deps)],
    params: uuidParam('id'),
    responses: { '200': 'application/pdf', ...refused },
    handler: async ({ params }, req, reply) =>
      sendPdf(reply, await deps.documents.jobReport(principalOf(req), params.id)),
  });
  route(app, catalogue, {
    method: 'GET',
    url: '/portal/quotes/:token/pdf',
    summary: 'The quote behind a portal link as a PDF (expired, revoked, unknown: 404)',
    tags: ['portal'],
    security: 'portal',
    params: z.object({ token: z.string() }),
    responses: { '200': 'application/pdf', ...refused },
    handler: async ({ params }, req, reply) => {
      reply.header('referrer-policy', 'no-referrer');
      return sendPdf(reply, await deps.documents.portalQuote(hostTenant(req), params.token, req.ip));
    },
  });
  registerBillingDocumentRoutes(app, catalogue, deps);
}
