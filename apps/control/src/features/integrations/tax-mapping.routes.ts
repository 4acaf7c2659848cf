/**
 * The accounting connection's tax mapping (owners and admins; docs/integrations.md, "Tax mapping"):
 *   GET  /api/tenants/{id}/integrations/accounting/tax-mapping      → ERP taxes, provider rates, choices
 *   PUT  /api/tenants/{id}/integrations/accounting/tax-mapping      → {tax_types: {erp tax id: tax type}}
 *   POST /api/tenants/{id}/integrations/accounting/tax-mapping/auto → the unmapped taxes mapped by rate
 * The PUT sets state (the same body twice leaves the same mapping), so a retry is harmless as is.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';

import type { ControlDeps } from '../../deps.js';
import { route, type RouteCatalogue } from '../../openapi/routes.js';
import { assertOwnTenant, authenticate, requireRole } from '../auth/auth.guard.js';
import type { ControlTaxMapping } from './tax-mapping.service.js';

const params = z.object({ id: z.uuid({ error: 'must be a UUID' }) });
const url = '/api/tenants/:id/integrations/accounting/tax-mapping';
const taxType = z
  .string({ error: 'must be a tax type of the accounting provider' })
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,50}$/, 'must be a tax type of the accounting provider (e.g. OUTPUT, TAX001)');
const body = z.strictObject({
  tax_types: z.record(z.string().regex(/^\d{1,9}$/, 'must be an ERP tax id'), taxType),
});
const problems = {
  '409': 'INTEGRATION_NOT_CONFIGURED (not connected)',
  '422': 'VALIDATION_FAILED',
  '502': 'ACCOUNTING_PROVIDER_FAILED',
};

export function registerTaxMappingRoutes(
  app: FastifyInstance,
  catalogue: RouteCatalogue,
  deps: ControlDeps,
  svc: ControlTaxMapping,
): void {
  const actor = (req: FastifyRequest, id: string) => ({ principal: assertOwnTenant(req, id), ip: req.ip });
  const common = {
    tags: ['integrations'],
    security: 'bearer' as const,
    preHandler: [authenticate(deps), requireRole('owner', 'admin')],
    params,
  };
  route(app, catalogue, {
    ...common,
    method: 'GET',
    url,
    summary: "Each ERP sale tax beside the accounting provider's active tax rates: stored, suggested, needing a choice",
    responses: { '200': 'The tax mapping', ...problems },
    handler: async ({ params: p }, req) => svc.view(actor(req, p.id).principal.tenantId),
  });
  route(app, catalogue, {
    ...common,
    method: 'PUT',
    url,
    summary: 'Save the tax type of ERP taxes (each an active tax rate of the provider; taxes left out keep theirs)',
    body,
    responses: { '200': 'Saved: the tax mapping', ...problems },
    handler: async ({ params: p, body: b }, req) => svc.save(actor(req, p.id), b.tax_types),
  });
  route(app, catalogue, {
    ...common,
    method: 'POST',
    url: `${url}/auto`,
    summary: 'Map every unmapped ERP tax whose percent equals exactly one active provider rate',
    responses: { '200': 'The tax mapping', ...problems },
    handler: async ({ params: p }, req) => svc.autoMap(actor(req, p.id)),
  });
}
