/** `/auth/*`: sign-in, refresh, sign-out, the signed-in profile and password reset. */
import { withTenant } from '@platform/db';
import { AppError } from '@platform/kernel';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';

import type { ControlDeps } from '../../deps.js';
import { route, type RouteCatalogue } from '../../openapi/routes.js';
import { authenticate, principalOf } from '../auth/auth.guard.js';
import { emailField, newPassword } from './account-fields.js';
import { profileIn } from './accounts.repo.js';
import type { ClientInfo } from './sessions.service.js';

const token = z.string().min(1, 'is required').max(200, 'must be at most 200 characters');
const tenantRef = z.string().min(1).max(100, 'must be a company slug or id').optional();

export const clientOf = (req: FastifyRequest): ClientInfo => ({ ip: req.ip, userAgent: req.headers['user-agent'] });

export function registerAuthRoutes(app: FastifyInstance, catalogue: RouteCatalogue, deps: ControlDeps): void {
  const a = deps.accounts;
  route(app, catalogue, {
    method: 'POST',
    url: '/auth/login',
    summary: 'Sign in: an access token and a refresh token',
    tags: ['auth'],
    security: 'none',
    // Any string is checked as typed: a malformed email is simply a failed sign-in (no hint).
    body: z.strictObject({
      email: z.string().min(1, 'is required').max(254),
      password: z.string().max(256),
      tenant: tenantRef,
    }),
    handler: ({ body }, req) => a.login.login(body, clientOf(req)),
  });
  route(app, catalogue, {
    method: 'POST',
    url: '/auth/refresh',
    summary: 'Exchange a refresh token for new tokens (rotation; reuse ends the session)',
    tags: ['auth'],
    security: 'none',
    body: z.strictObject({ refresh_token: token }),
    handler: ({ body }, req) => a.sessions.refresh(body.refresh_token, clientOf(req)),
  });
  route(app, catalogue, {
    method: 'POST',
    url: '/auth/logout',
    summary: 'Sign out: end the session of this refresh token',
    tags: ['auth'],
    security: 'none',
    body: z.strictObject({ refresh_token: token }),
    responses: { '204': 'Signed out (also for an unknown token)' },
    handler: async ({ body }, req, reply) => {
      await a.sessions.logout(body.refresh_token, clientOf(req));
      return reply.code(204).send();
    },
  });
  route(app, catalogue, {
    method: 'POST',
    url: '/auth/logout-all',
    summary: 'Sign out everywhere: end every session of the signed-in user in this company',
    tags: ['auth'],
    security: 'bearer',
    preHandler: [authenticate(deps)],
    responses: { '204': 'Every session ended; their access tokens stop working at once' },
    handler: async (_input, req, reply) => {
      const p = principalOf(req);
      await a.sessions.logoutAll(p.tenantId, p.userId, clientOf(req));
      return reply.code(204).send();
    },
  });
  route(app, catalogue, {
    method: 'GET',
    url: '/auth/me',
    summary: 'The signed-in user, company and role',
    tags: ['auth'],
    security: 'bearer',
    preHandler: [authenticate(deps)],
    handler: async (_input, req) => {
      const p = principalOf(req);
      const me = await withTenant(deps.db, p.tenantId, (tx) => profileIn(tx, p.tenantId, p.userId));
      if (!me) throw new AppError('TOKEN_INVALID', 'The access token is not valid.');
      return {
        user: { id: me.user_id, email: me.email, name: me.user_name },
        tenant: { id: me.tenant_id, slug: me.slug, name: me.tenant_name, status: me.status },
        role: me.role,
        email_verified: await deps.signup.verification.isVerified(p.userId),
      };
    },
  });
  route(app, catalogue, {
    method: 'POST',
    url: '/auth/password-reset',
    summary: 'Ask for a password reset link (the same 202 whether or not the account exists)',
    tags: ['auth'],
    security: 'none',
    body: z.strictObject({ email: emailField, tenant: tenantRef }),
    responses: { '202': 'If the address has an account, a link is on its way' },
    handler: async ({ body }, req, reply) => {
      await a.passwordResets.request(body, clientOf(req));
      return reply.code(202).send({ status: 'accepted', message: RESET_MESSAGE });
    },
  });
  route(app, catalogue, {
    method: 'POST',
    url: '/auth/password-reset/confirm',
    summary: 'Set a new password with the emailed link (ends every session of the account)',
    tags: ['auth'],
    security: 'none',
    body: z.strictObject({ token, password: newPassword }),
    responses: { '204': 'Password changed' },
    handler: async ({ body }, req, reply) => {
      await a.passwordResets.confirm(body, clientOf(req));
      return reply.code(204).send();
    },
  });
  route(app, catalogue, {
    method: 'POST',
    url: '/auth/invitations/accept',
    summary: 'Accept an invitation (new account, or an existing one with its current password) and sign in',
    tags: ['auth'],
    security: 'none',
    // The password rules apply to a new account's password (checked by the service); an existing
    // account accepts with its current one, and keeps its name.
    body: z.strictObject({
      token,
      name: z.string().trim().max(100, 'must be at most 100 characters').optional(),
      password: z.string().min(1, 'is required').max(256, 'must be at most 256 characters'),
    }),
    handler: ({ body }, req) => a.invitations.accept(body, clientOf(req)),
  });
}

const RESET_MESSAGE = 'If an account uses this address, we have emailed it a link to choose a new password.';
