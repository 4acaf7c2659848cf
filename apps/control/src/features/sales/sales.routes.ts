/** /sales: price grids, quotes (create, list, read, send, revoke links, confirm) and orders. Office, admin, owner. */
import { idempotencyKeyOf } from '@platform/intake';
import { AppError } from '@platform/kernel';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

import type { ControlDeps } from '../../deps.js';
import { pageQuery, route, type RouteCatalogue, uuidParam } from '../../openapi/routes.js';
import { authenticate, principalOf, requireRole } from '../auth/auth.guard.js';
import { requireVerifiedEmail } from '../signup/verified-email.guard.js';
import { registerBranchGridRoutes } from './branch-price-grids.routes.js';
import { priceGridBody, productCode, quoteBody } from './price-grid.schemas.js';

export function registerSalesRoutes(app: FastifyInstance, catalogue: RouteCatalogue, deps: ControlDeps): void {
  const guard = [authenticate(deps), requireRole('owner', 'admin', 'office')];
  const base = { tags: ['sales'], security: 'bearer' as const, preHandler: guard };
  const codeParam = z.object({ product_code: productCode });
  const idParam = uuidParam('id');

  route(app, catalogue, {
    ...base,
    method: 'GET',
    url: '/sales/price-grids',
    summary: "The tenant's price grids (seeded on first use); `zip`: as the branch serving it prices",
    query: z.strictObject({ zip: z.string().trim().max(10, 'must be a ZIP code').optional() }),
    handler: async ({ query }, req) => ({ items: await deps.sales.grids.list(principalOf(req).tenantId, query.zip) }),
  });
  route(app, catalogue, {
    ...base,
    method: 'GET',
    url: '/sales/price-grids/:product_code',
    summary: 'One price grid',
    params: codeParam,
    handler: async ({ params }, req) => {
      const all = await deps.sales.grids.list(principalOf(req).tenantId);
      const g = all.find((x) => x.product_code === params.product_code);
      if (!g) throw new AppError('NOT_FOUND', 'No such price grid.');
      return g;
    },
  });
  route(app, catalogue, {
    ...base,
    method: 'PUT',
    url: '/sales/price-grids/:product_code',
    summary: 'Create or replace a price grid (ascending bands, positive prices, 1/8-inch sizes)',
    params: codeParam,
    body: priceGridBody,
    handler: async ({ params, body }, req) => deps.sales.grids.put(principalOf(req), params.product_code, body, req.ip),
  });
  registerBranchGridRoutes(app, catalogue, deps, base);

  route(app, catalogue, {
    ...base,
    method: 'POST',
    url: '/sales/quotes',
    summary: 'Create a quote priced from the grids (a sale order with its lines in the ERP); Idempotency-Key honoured',
    body: quoteBody,
    responses: { '201': 'The quote' },
    handler: async ({ body }, req, reply) => {
      const q = await deps.sales.quotes.create(
        principalOf(req),
        body,
        idempotencyKeyOf(req.headers['idempotency-key']),
        req.ip,
      );
      return reply.code(201).send(q);
    },
  });
  route(app, catalogue, {
    ...base,
    method: 'GET',
    url: '/sales/quotes',
    summary: 'Quotes made through the platform, newest first',
    query: z.object(pageQuery),
    handler: async ({ query }, req) => deps.sales.quotes.list(principalOf(req).tenantId, query.page, query.page_size),
  });
  route(app, catalogue, {
    ...base,
    method: 'GET',
    url: '/sales/quotes/:id',
    summary: 'One quote with its lines, totals and deposit',
    params: idParam,
    handler: async ({ params }, req) => deps.sales.quotes.get(principalOf(req).tenantId, params.id),
  });
  route(app, catalogue, {
    ...base,
    method: 'POST',
    url: '/sales/quotes/:id/send',
    preHandler: [...guard, requireVerifiedEmail(deps)],
    summary:
      "Send the quote: a customer portal link (on the tenant's primary host), emailed and texted to the customer; Idempotency-Key honoured",
    params: idParam,
    handler: async ({ params }, req) =>
      deps.sales.sending.send(principalOf(req), params.id, idempotencyKeyOf(req.headers['idempotency-key']), req.ip),
  });
  route(app, catalogue, {
    ...base,
    method: 'POST',
    url: '/sales/quotes/:id/revoke-links',
    summary: 'Revoke every portal link of the quote',
    params: idParam,
    handler: async ({ params }, req) => deps.sales.sending.revokeLinks(principalOf(req), params.id, req.ip),
  });
  route(app, catalogue, {
    ...base,
    method: 'POST',
    url: '/sales/quotes/:id/confirm',
    summary: 'Confirm the quote (the sale order is confirmed in the ERP; repeating it changes nothing)',
    params: idParam,
    handler: async ({ params }, req) => deps.sales.quotes.confirm(principalOf(req), params.id, req.ip),
  });
  route(app, catalogue, {
    ...base,
    method: 'GET',
    url: '/sales/taxes',
    summary:
      "The sales taxes quote lines get from the tenant's ERP: per grid product code (its ERP product's taxes), else the company's default sale tax",
    handler: async (_i, req) => deps.sales.quotes.taxes(principalOf(req).tenantId),
  });
  route(app, catalogue, {
    ...base,
    method: 'GET',
    url: '/sales/orders',
    summary: 'Confirmed sale orders of the tenant (from its ERP)',
    query: z.object(pageQuery),
    handler: async ({ query }, req) => deps.sales.quotes.orders(principalOf(req).tenantId, query.page, query.page_size),
  });
}
