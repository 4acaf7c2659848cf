/**
 * The tenants API (docs/control-plane.md, "Tenants"): the operator creates, suspends, resumes and
 * deletes tenants; a member reads its own tenant and settings; owners and admins change settings.
 */
import { withTenant } from '@platform/db';
import { getTenantRecord, type TenantRecord } from '@platform/tenancy';
import type { FastifyInstance } from 'fastify';

import type { ControlDeps } from '../../deps.js';
import { route, type RouteCatalogue, uuidParam } from '../../openapi/routes.js';
import { assertOwnTenant, authenticate, ownTenantRoute, requireRole } from '../auth/auth.guard.js';
import { requireOperator } from './operator.guard.js';
import { createTenantSchema, settingsSchema } from './tenants.schemas.js';

const OPERATOR = { kind: 'operator' } as const;

export const tenantView = (t: TenantRecord) => ({
  id: t.id,
  slug: t.slug,
  name: t.name,
  status: t.status,
  plan: t.plan,
  erp_db: t.erp_db,
  site_name: t.site_name,
  helpdesk_team_id: t.helpdesk_team_id,
});

export function registerTenantRoutes(app: FastifyInstance, catalogue: RouteCatalogue, deps: ControlDeps): void {
  const signedIn = authenticate(deps);
  const ownTenant = ownTenantRoute(deps);
  const operator = requireOperator(deps.config.CONTROL_OPERATOR_TOKEN);
  route(app, catalogue, {
    method: 'POST',
    url: '/api/tenants',
    summary: 'Create a tenant: its own ERP database, service account, subdomain and owner (idempotent on slug)',
    tags: ['tenants'],
    security: 'operator',
    preHandler: [operator],
    body: createTenantSchema,
    responses: { '201': 'The tenant, active' },
    handler: async ({ body }, req, reply) => {
      const t = await deps.provisioning.create(body, OPERATOR, req.ip);
      return reply.code(201).send(t);
    },
  });
  route(app, catalogue, {
    ...ownTenant,
    method: 'GET',
    url: '/api/tenants/:id',
    summary: 'The signed-in tenant',
    tags: ['tenants'],
    handler: async ({ params }, req) => {
      assertOwnTenant(req, params.id);
      // Read inside the tenant's scope: the tenant_self policy shows this row only.
      const t = await withTenant(deps.db, params.id, (tx) => getTenantRecord(tx, params.id));
      return tenantView(t!);
    },
  });
  for (const move of ['suspend', 'resume'] as const)
    route(app, catalogue, {
      method: 'POST',
      url: `/api/tenants/:id/${move}`,
      summary: move === 'suspend' ? 'Suspend a tenant (sign-in refused, hosts dark, data kept)' : 'Resume a tenant',
      tags: ['tenants'],
      security: 'operator',
      preHandler: [operator],
      params: uuidParam('id'),
      handler: async ({ params }, req) => tenantView(await deps.tenants.move(params.id, move, OPERATOR, req.ip)),
    });
  route(app, catalogue, {
    method: 'DELETE',
    url: '/api/tenants/:id',
    summary: 'Delete a tenant (soft: domains released, data kept; the ERP database is purged later)',
    tags: ['tenants'],
    security: 'operator',
    preHandler: [operator],
    params: uuidParam('id'),
    handler: async ({ params }, req) => tenantView(await deps.tenants.move(params.id, 'delete', OPERATOR, req.ip)),
  });
  route(app, catalogue, {
    ...ownTenant,
    method: 'GET',
    url: '/api/tenants/:id/settings',
    summary: "The tenant's settings (branding, contact, social, SEO, features)",
    tags: ['tenants'],
    handler: async ({ params }, req) => {
      assertOwnTenant(req, params.id);
      return deps.settings.get(params.id);
    },
  });
  route(app, catalogue, {
    method: 'PUT',
    url: '/api/tenants/:id/settings',
    summary: 'Change settings: the fields sent (null clears one); logo, favicon and colours need custom_branding',
    tags: ['tenants'],
    security: 'bearer',
    preHandler: [signedIn, requireRole('owner', 'admin')],
    params: uuidParam('id'),
    body: settingsSchema,
    handler: async ({ params, body }, req) => {
      const p = assertOwnTenant(req, params.id);
      return deps.settings.update(params.id, body, { userId: p.userId, ip: req.ip });
    },
  });
}
