/**
 * The final invoice (docs/payments.md, "Final invoice"): the office invoices a completed job, lists
 * the invoices, records a payment and resends the pay link; the customer's pay page and its "Pay".
 */
import { INVOICE_LIST_STATES, OFFICE_PAYMENT_METHODS } from '@platform/contracts/invoicing.js';
import { sendAnswer } from '@platform/http-kit';
import { idempotencyKeyOf } from '@platform/intake';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';

import type { ControlDeps } from '../../deps.js';
import { route, type RouteCatalogue } from '../../openapi/routes.js';
import { assertOwnTenant, authenticate, principalOf, requireRole } from '../auth/auth.guard.js';
import { hostTenant } from '../documents/pdf-reply.js';

const invoiceId = z.coerce
  .number()
  .int('must be an invoice id')
  .positive('must be an invoice id')
  .max(2_147_483_647, 'must be an invoice id');
const keyOf = (req: FastifyRequest) => idempotencyKeyOf(req.headers['idempotency-key']);
const paymentBody = z.object({
  amount_minor: z.number().int('must be whole minor units').positive('must be more than 0').max(1e11, 'is too large'),
  method: z.enum(OFFICE_PAYMENT_METHODS, { error: 'must be cash, check or bank' }),
  date: z.iso.date({ error: 'must be a date (YYYY-MM-DD)' }).optional(),
  memo: z.string().trim().max(100, 'must be at most 100 characters').optional(),
});

export function registerInvoicingRoutes(app: FastifyInstance, catalogue: RouteCatalogue, deps: ControlDeps): void {
  const office = [authenticate(deps), requireRole('owner', 'admin', 'office')];
  const base = { tags: ['invoicing'], security: 'bearer' as const, preHandler: office };
  const { office: invoices, links } = deps.invoicing;

  route(app, catalogue, {
    ...base,
    method: 'POST',
    url: '/jobs/:id/invoice',
    summary: "The completed job's final invoice in the ERP (the deposit deducted), posted and emailed; made once",
    params: z.object({ id: z.uuid({ error: 'must be a UUID' }) }),
    responses: { '201': 'Invoiced', '200': 'Already invoiced: that invoice', '409': 'INVOICE_NOT_DUE' },
    handler: async ({ params }, req, reply) =>
      sendAnswer(reply, await invoices.invoiceJob(principalOf(req), params.id, keyOf(req))),
  });
  route(app, catalogue, {
    ...base,
    method: 'GET',
    url: '/invoices',
    summary: 'Posted customer invoices: open, overdue or paid, amounts in minor units, and the balance per customer',
    query: z.object({ state: z.enum(INVOICE_LIST_STATES, { error: 'must be open, overdue or paid' }).default('open') }),
    handler: ({ query }, req) => invoices.list(principalOf(req), query.state),
  });
  route(app, catalogue, {
    ...base,
    method: 'GET',
    url: '/invoices/:id',
    summary:
      'One customer invoice of the ERP: number, customer, dates, total and residual in minor units, and its payments',
    params: z.object({ id: invoiceId }),
    handler: ({ params }, req) => invoices.detail(principalOf(req).tenantId, params.id),
  });
  route(app, catalogue, {
    ...base,
    method: 'POST',
    url: '/invoices/:id/payments',
    summary: 'Record a cash, check or bank payment of at most the residual on the ERP invoice',
    params: z.object({ id: invoiceId }),
    body: paymentBody,
    responses: { '201': 'The invoice after the payment', '409': 'INVOICE_NOT_PAYABLE', '422': 'VALIDATION_FAILED' },
    handler: async ({ params, body }, req, reply) =>
      sendAnswer(reply, await invoices.recordPayment(principalOf(req), params.id, body, keyOf(req))),
  });
  route(app, catalogue, {
    ...base,
    method: 'POST',
    url: '/invoices/:id/send',
    summary: 'Email the customer a fresh pay link to the invoice (its PDF attached when the plan has PDFs)',
    params: z.object({ id: invoiceId }),
    responses: { '201': 'Sent', '409': 'INVOICE_NOT_PAYABLE' },
    handler: async ({ params }, req, reply) =>
      sendAnswer(reply, await links.send(principalOf(req), params.id, keyOf(req))),
  });
  route(app, catalogue, {
    tags: ['invoicing'],
    security: 'bearer',
    preHandler: [authenticate(deps), requireRole('owner', 'admin')],
    method: 'POST',
    url: '/payments/:id/refund',
    summary:
      'Refund all (no amount) or part of a card payment (ERP account.payment id) at the provider, with a credit note in the ERP',
    params: z.object({ id: invoiceId }),
    body: z
      .strictObject({
        amount_minor: z.number().int('must be whole minor units').positive('must be more than 0').optional(),
      })
      .optional(),
    responses: { '201': 'Refunded', '409': 'INVOICE_NOT_PAYABLE', '422': 'VALIDATION_FAILED' },
    handler: async ({ params, body }, req, reply) =>
      sendAnswer(reply, await deps.invoicing.refunds.refund(principalOf(req), params.id, body ?? {}, keyOf(req))),
  });
  const managers = { tags: ['invoicing'], security: 'bearer' as const };
  const tenant = z.object({ id: z.uuid({ error: 'must be a UUID' }) });
  route(app, catalogue, {
    ...managers,
    method: 'GET',
    url: '/api/tenants/:id/invoicing',
    summary: 'Whether the company invoices a completed install job by itself (off by default)',
    preHandler: [authenticate(deps), requireRole('owner', 'admin')],
    params: tenant,
    handler: ({ params }, req) => deps.invoicing.auto.settings(assertOwnTenant(req, params.id).tenantId),
  });
  route(app, catalogue, {
    ...managers,
    method: 'PUT',
    url: '/api/tenants/:id/invoicing',
    summary: 'Turn invoicing a completed install job automatically on or off',
    preHandler: [authenticate(deps), requireRole('owner', 'admin')],
    params: tenant,
    body: z.strictObject({ auto_invoice: z.boolean({ error: 'must be true or false' }) }),
    handler: ({ params, body }, req) => deps.invoicing.auto.setSettings(assertOwnTenant(req, params.id), body, req.ip),
  });
  const portal = { tags: ['portal'], security: 'portal' as const, params: z.object({ token: z.string() }) };
  route(app, catalogue, {
    ...portal,
    method: 'GET',
    url: '/portal/invoices/:token',
    summary:
      "The pay link's invoice: lines, deposit deducted, amount due (minor units) and whether it can be paid by card",
    responses: { '200': 'The invoice', '404': 'PORTAL_LINK_INVALID' },
    handler: async ({ params }, req, reply) => {
      reply.header('referrer-policy', 'no-referrer').header('cache-control', 'no-store');
      return links.view(hostTenant(req), params.token);
    },
  });
  route(app, catalogue, {
    ...portal,
    method: 'POST',
    url: '/portal/invoices/:token/checkout',
    summary: "The provider's page to pay the invoice's current residual (set by the server; one page per amount)",
    responses: { '200': '{url, session_id}', '409': 'INVOICE_NOT_PAYABLE', '502': 'PAYMENTS_PROVIDER_FAILED' },
    handler: async ({ params }, req, reply) => {
      reply.header('cache-control', 'no-store');
      return links.checkout(hostTenant(req), params.token);
    },
  });
}
