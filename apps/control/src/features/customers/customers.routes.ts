/**
 * /customers: the tenant's customers (ERP contacts) with their leads, quotes, jobs, messages and
 * notes; add a note; merge a duplicate. Office, admin, owner.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

import type { ControlDeps } from '../../deps.js';
import { pageQuery, route, type RouteCatalogue } from '../../openapi/routes.js';
import { authenticate, principalOf, requireRole } from '../auth/auth.guard.js';

const partnerId = (what: string) =>
  z.coerce.number().int(`must be ${what}`).positive(`must be ${what}`).max(2_147_483_647, `must be ${what}`);
const idParam = z.object({ id: partnerId('a customer id') });

export function registerCustomerRoutes(app: FastifyInstance, catalogue: RouteCatalogue, deps: ControlDeps): void {
  const base = {
    tags: ['customers'],
    security: 'bearer' as const,
    preHandler: [authenticate(deps), requireRole('owner', 'admin', 'office')],
  };
  route(app, catalogue, {
    ...base,
    method: 'GET',
    url: '/customers',
    summary: 'Customers by name, with free-text search over name, email, phone (any punctuation) and address',
    query: z.object({ q: z.string().trim().max(100, 'must be at most 100 characters').optional(), ...pageQuery }),
    handler: async ({ query }, req) =>
      deps.customers.list(principalOf(req).tenantId, query.q || undefined, query.page, query.page_size),
  });
  route(app, catalogue, {
    ...base,
    method: 'GET',
    url: '/customers/:id',
    summary: 'One customer with their leads, quotes, jobs, messages, notes and likely duplicates',
    params: idParam,
    handler: async ({ params }, req) => deps.customers.get(principalOf(req).tenantId, params.id),
  });
  route(app, catalogue, {
    ...base,
    method: 'POST',
    url: '/customers/:id/notes',
    summary: "Adds a note to the customer (the ERP contact's chatter); answers the customer",
    params: idParam,
    body: z.strictObject({
      body: z.string().trim().min(1, 'must not be empty').max(10_000, 'must be at most 10000 characters'),
    }),
    handler: async ({ params, body }, req) => deps.customers.addNote(principalOf(req), params.id, body.body, req.ip),
  });
  route(app, catalogue, {
    ...base,
    method: 'POST',
    url: '/customers/:id/merge',
    summary:
      'Merges another customer into this one: their leads, quotes and job sites move here, empty contact fields are filled, the other is archived',
    params: idParam,
    body: z.strictObject({ duplicate_id: partnerId('a customer id') }),
    handler: async ({ params, body }, req) =>
      deps.customers.merge(principalOf(req), params.id, body.duplicate_id, req.ip),
  });
}
