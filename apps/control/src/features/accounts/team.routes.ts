/**
 * `/api/tenants/{id}/users` and `/invitations`: a company's members and open invitations (list,
 * resend with a new link, revoke), managed by owners and admins;
 * `/technicians`: whom a job can be assigned to, for everyone who dispatches (the office too).
 */
import type { PendingInvitationView } from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

import type { ControlDeps } from '../../deps.js';
import { pageQuery, route, type RouteCatalogue } from '../../openapi/routes.js';
import { assertOwnTenant, authenticate, requireRole } from '../auth/auth.guard.js';
import { ROLES } from '../auth/principal.js';
import { requireVerifiedEmail } from '../signup/verified-email.guard.js';
import { emailField } from './account-fields.js';
import { clientOf } from './auth.routes.js';
import type { PendingInvitation } from './pending-invitations.service.js';

const uuid = z.uuid({ error: 'must be a UUID' });
const role = z.enum(ROLES, { error: `must be one of ${ROLES.join(', ')}` });
const invitationParams = z.strictObject({ id: uuid, inv_id: uuid });

const invitationView = (i: PendingInvitation): PendingInvitationView => ({
  id: i.id,
  email: i.email,
  role: i.role,
  invited_by: i.invited_by,
  created_at: i.created_at.toISOString(),
  expires_at: i.expires_at.toISOString(),
});

export function registerTeamRoutes(app: FastifyInstance, catalogue: RouteCatalogue, deps: ControlDeps): void {
  const managers = [authenticate(deps), requireRole('owner', 'admin')];
  const a = deps.accounts;
  route(app, catalogue, {
    method: 'GET',
    url: '/api/tenants/:id/users',
    summary: "The company's members",
    tags: ['users'],
    security: 'bearer',
    preHandler: managers,
    params: z.strictObject({ id: uuid }),
    query: z.strictObject(pageQuery),
    handler: async ({ params, query }, req) => {
      assertOwnTenant(req, params.id);
      const { rows, total } = await a.team.list(params.id, query.page, query.page_size);
      return { items: rows, page: query.page, page_size: query.page_size, total };
    },
  });
  route(app, catalogue, {
    method: 'GET',
    url: '/api/tenants/:id/technicians',
    summary: "The company's technicians (id and name), for the dispatch board",
    tags: ['users'],
    security: 'bearer',
    preHandler: [authenticate(deps), requireRole('owner', 'admin', 'office')],
    params: z.strictObject({ id: uuid }),
    handler: async ({ params }, req) => {
      assertOwnTenant(req, params.id);
      return { items: await a.team.technicians(params.id) };
    },
  });
  route(app, catalogue, {
    method: 'POST',
    url: '/api/tenants/:id/invitations',
    summary: 'Invite someone with a role (the same 202 whether or not the address has an account)',
    tags: ['users'],
    security: 'bearer',
    params: z.strictObject({ id: uuid }),
    body: z.strictObject({ email: emailField, role }),
    preHandler: [...managers, requireVerifiedEmail(deps)],
    responses: { '202': 'Invitation emailed (nothing is sent to an existing member)' },
    handler: async ({ params, body }, req, reply) => {
      const p = assertOwnTenant(req, params.id);
      return reply.code(202).send(await a.invitations.invite(p, body, clientOf(req)));
    },
  });
  route(app, catalogue, {
    method: 'GET',
    url: '/api/tenants/:id/invitations',
    summary: 'Open invitations (not accepted, revoked, replaced or expired), newest first',
    tags: ['users'],
    security: 'bearer',
    preHandler: managers,
    params: z.strictObject({ id: uuid }),
    handler: async ({ params }, req) => {
      assertOwnTenant(req, params.id);
      return { items: (await a.pendingInvitations.list(params.id)).map(invitationView) };
    },
  });
  route(app, catalogue, {
    method: 'POST',
    url: '/api/tenants/:id/invitations/:inv_id/resend',
    summary: 'Email the invitation again with a new link (the old link stops working); 3 an hour',
    tags: ['users'],
    security: 'bearer',
    preHandler: [...managers, requireVerifiedEmail(deps)],
    params: invitationParams,
    responses: { '200': 'Sent again', '404': 'NOT_FOUND (not open)', '429': 'RATE_LIMITED' },
    handler: async ({ params }, req) =>
      invitationView(
        await a.pendingInvitations.resend(assertOwnTenant(req, params.id), params.inv_id, clientOf(req).ip),
      ),
  });
  route(app, catalogue, {
    method: 'DELETE',
    url: '/api/tenants/:id/invitations/:inv_id',
    summary: 'Revoke an open invitation: its link no longer works',
    tags: ['users'],
    security: 'bearer',
    preHandler: managers,
    params: invitationParams,
    responses: { '204': 'Revoked', '404': 'NOT_FOUND (not open)' },
    handler: async ({ params }, req, reply) => {
      await a.pendingInvitations.revoke(assertOwnTenant(req, params.id), params.inv_id, clientOf(req).ip);
      return reply.code(204).send();
    },
  });
  route(app, catalogue, {
    method: 'PATCH',
    url: '/api/tenants/:id/users/:user_id',
    summary: "Change a member's role (only an owner makes or changes owners; one owner always stays)",
    tags: ['users'],
    security: 'bearer',
    preHandler: managers,
    params: z.strictObject({ id: uuid, user_id: uuid }),
    body: z.strictObject({ role }),
    handler: async ({ params, body }, req) => {
      const p = assertOwnTenant(req, params.id);
      await a.team.changeRole(p, params.user_id, body.role, clientOf(req));
      return a.team.member(params.id, params.user_id);
    },
  });
  route(app, catalogue, {
    method: 'DELETE',
    url: '/api/tenants/:id/users/:user_id',
    summary: 'Remove a member from the company (ends their sessions here; their account stays)',
    tags: ['users'],
    security: 'bearer',
    preHandler: managers,
    params: z.strictObject({ id: uuid, user_id: uuid }),
    responses: { '204': 'Removed' },
    handler: async ({ params }, req, reply) => {
      const p = assertOwnTenant(req, params.id);
      await a.team.remove(p, params.user_id, clientOf(req));
      return reply.code(204).send();
    },
  });
}
