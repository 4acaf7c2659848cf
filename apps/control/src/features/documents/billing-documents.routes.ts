/**
 * The invoice and supplier purchase-order PDFs (docs/documents.md): the office's downloads by ERP id,
 * and the portal's list and downloads of the invoices of the order its quote became. Registered by
 * registerDocumentRoutes; each PDF answers as an attachment, never cached.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

import type { ControlDeps } from '../../deps.js';
import { route, type RouteCatalogue } from '../../openapi/routes.js';
import { authenticate, principalOf, requireRole } from '../auth/auth.guard.js';
import { hostTenant, sendPdf } from './pdf-reply.js';

const erpId = (what: string) =>
  z.coerce.number().int(`must be ${what}`).positive(`must be ${what}`).max(2_147_483_647, `must be ${what}`);
const refused = { '403': 'The plan has no pdf_reports (PLAN_FEATURE_MISSING)', '404': 'Not found' };

export function registerBillingDocumentRoutes(
  app: FastifyInstance,
  catalogue: RouteCatalogue,
  deps: ControlDeps,
): void {
  const office = [authenticate(deps), requireRole('owner', 'admin', 'office')];
  route(app, catalogue, {
    method: 'GET',
    url: '/invoices/:id/pdf',
    summary: 'A customer invoice or credit note (ERP account.move id) as a PDF; a posted one as first drawn',
    tags: ['documents'],
    security: 'bearer',
    preHandler: office,
    params: z.object({ id: erpId('an invoice id') }),
    responses: { '200': 'application/pdf', ...refused },
    handler: async ({ params }, req, reply) =>
      sendPdf(reply, await deps.documents.billing.invoice(principalOf(req), params.id)),
  });
  route(app, catalogue, {
    method: 'GET',
    url: '/purchase-orders/:id/pdf',
    summary: 'A supplier purchase order or RFQ (ERP purchase.order id) as a PDF',
    tags: ['documents'],
    security: 'bearer',
    preHandler: office,
    params: z.object({ id: erpId('a purchase order id') }),
    responses: { '200': 'application/pdf', ...refused },
    handler: async ({ params }, req, reply) =>
      sendPdf(reply, await deps.documents.billing.purchaseOrder(principalOf(req), params.id)),
  });
  route(app, catalogue, {
    method: 'GET',
    url: '/portal/quotes/:token/invoices',
    summary: "The invoices of the order the link's quote became (empty while it is a quote)",
    tags: ['portal'],
    security: 'portal',
    params: z.object({ token: z.string() }),
    responses: { '200': 'The invoices: id, number, state, amount_total, amount_due', ...refused },
    handler: async ({ params }, req, reply) => {
      reply.header('referrer-policy', 'no-referrer').header('cache-control', 'no-store');
      return { invoices: await deps.documents.billing.portalInvoices(hostTenant(req), params.token) };
    },
  });
  route(app, catalogue, {
    method: 'GET',
    url: '/portal/quotes/:token/invoices/:id/pdf',
    summary: "One invoice of the link's order as a PDF (any other invoice: 404)",
    tags: ['portal'],
    security: 'portal',
    params: z.object({ token: z.string(), id: erpId('an invoice id') }),
    responses: { '200': 'application/pdf', ...refused },
    handler: async ({ params }, req, reply) => {
      reply.header('referrer-policy', 'no-referrer');
      return sendPdf(
        reply,
        await deps.documents.billing.portalInvoice(hostTenant(req), params.token, params.id, req.ip),
      );
    },
  });
}
