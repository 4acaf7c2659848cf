/**
 * Domains of a tenant (owner/admin) and the public host → tenant look-up:
 *   GET  /api/tenants/by-domain?domain=           → {tenant_id, slug, name, domain, domain_type} + x-tenant-*
 *   GET  /api/tenants/{id}/domains                → list
 *   POST /api/tenants/{id}/domains {domain, is_primary?} → 201 (200 when this tenant already has it)
 *   DELETE /api/tenants/{id}/domains/{domain_id}  → 204
 *   POST /api/tenants/{id}/domains/{domain_id}/check → 202 (retry: new deadline, looked at now)
 */
import { AppError } from '@platform/kernel';
import type { TenantDomainRow } from '@platform/tenancy';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

import type { ControlDeps } from '../../deps.js';
import { pageQuery, route, type RouteCatalogue } from '../../openapi/routes.js';
import { assertOwnTenant, authenticate, requireRole } from '../auth/auth.guard.js';
import type { DomainsService } from './domains.service.js';

const ids = z.object({
  id: z.uuid({ error: 'must be a UUID' }),
  domain_id: z.uuid({ error: 'must be a UUID' }),
});

/** What the tenant sees of a domain: its state in words, and what to do while it is pending. */
function view(d: TenantDomainRow, s: DomainsService) {
  const custom = d.domain_type === 'custom';
  const state =
    d.ssl_status === 'active'
      ? 'active'
      : d.ssl_status === 'failed'
        ? 'failed'
        : d.cname_seen_at
          ? 'issuing_certificate'
          : 'awaiting_dns';
  return {
    id: d.id,
    domain: d.domain,
    domain_type: d.domain_type,
    is_primary: d.is_primary,
    ssl_status: d.ssl_status,
    state,
    cname_target: custom ? s.policy.tenantsHost : null,
    cname_seen_at: d.cname_seen_at?.toISOString() ?? null,
    last_checked_at: d.last_checked_at?.toISOString() ?? null,
    check_error: d.check_error,
    verify_deadline_at:
      custom && state === 'awaiting_dns'
        ? new Date(d.verify_started_at.getTime() + s.policy.verifyDeadlineMs).toISOString()
        : null,
    failure_reason: d.failure_reason,
    created_at: d.created_at.toISOString(),
  };
}

export function registerDomainRoutes(
  app: FastifyInstance,
  catalogue: RouteCatalogue,
  deps: ControlDeps & { domains: DomainsService },
): void {
  const managers = [authenticate(deps), requireRole('owner', 'admin')];
  const actor = (req: Parameters<typeof assertOwnTenant>[0], id: string) => ({
    principal: assertOwnTenant(req, id),
    ip: req.ip,
  });

  route(app, catalogue, {
    method: 'GET',
    url: '/api/tenants/by-domain',
    summary: 'The tenant a host name belongs to (platform subdomain or active custom domain)',
    tags: ['domains'],
    security: 'none',
    query: z.object({ domain: z.string().min(1, 'is required').max(300, 'must be at most 300 characters') }),
    responses: { '200': 'The tenant', '404': 'No tenant has this host (TENANT_NOT_FOUND)' },
    handler: async ({ query }, _req, reply) => {
      const found = await deps.domains.byDomain(query.domain);
      if (!found) throw new AppError('TENANT_NOT_FOUND', 'No tenant is served at this host.');
      void reply.header('x-tenant-id', found.tenant_id).header('x-tenant-slug', found.slug);
      return found;
    },
  });

  route(app, catalogue, {
    method: 'GET',
    url: '/api/tenants/:id/domains',
    summary: "The tenant's domains: its platform subdomain and custom domains with their state",
    tags: ['domains'],
    security: 'bearer',
    preHandler: managers,
    params: z.object({ id: ids.shape.id }),
    query: z.object(pageQuery),
    handler: async ({ params, query }, req) => {
      assertOwnTenant(req, params.id);
      const all = await deps.domains.list(params.id);
      const start = (query.page - 1) * query.page_size;
      return {
        items: all.slice(start, start + query.page_size).map((d) => view(d, deps.domains)),
        page: query.page,
        page_size: query.page_size,
        total: all.length,
      };
    },
  });

  route(app, catalogue, {
    method: 'POST',
    url: '/api/tenants/:id/domains',
    summary: 'Add a custom domain (pending until its CNAME is seen and its certificate issued)',
    tags: ['domains'],
    security: 'bearer',
    preHandler: managers,
    params: z.object({ id: ids.shape.id }),
    body: z.strictObject({
      domain: z.string({ error: 'is required' }).min(1, 'is required').max(300, 'must be at most 300 characters'),
      is_primary: z.boolean({ error: 'must be true or false' }).optional(),
    }),
    responses: { '201': 'Added', '200': 'This tenant already had it', '409': 'DOMAIN_TAKEN', '422': 'DOMAIN_INVALID' },
    handler: async ({ params, body }, req, reply) => {
      const out = await deps.domains.add(actor(req, params.id), body);
      return reply.code(out.created ? 201 : 200).send(view(out.domain, deps.domains));
    },
  });

  route(app, catalogue, {
    method: 'DELETE',
    url: '/api/tenants/:id/domains/:domain_id',
    summary: 'Remove a custom domain (it stops resolving at once; the platform subdomain stays)',
    tags: ['domains'],
    security: 'bearer',
    preHandler: managers,
    params: ids,
    responses: { '204': 'Removed' },
    handler: async ({ params }, req, reply) => {
      await deps.domains.remove(actor(req, params.id), params.domain_id);
      return reply.code(204).send();
    },
  });

  route(app, catalogue, {
    method: 'POST',
    url: '/api/tenants/:id/domains/:domain_id/check',
    summary: 'Check again now: a pending or failed custom domain gets a new deadline and an immediate DNS look',
    tags: ['domains'],
    security: 'bearer',
    preHandler: managers,
    params: ids,
    responses: { '202': 'Queued' },
    handler: async ({ params }, req, reply) => {
      const row = await deps.domains.retry(actor(req, params.id), params.domain_id);
      return reply.code(202).send(view(row, deps.domains));
    },
  });
}
