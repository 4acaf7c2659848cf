/**
 * The guard of every signed-in endpoint: a verified access token of an active tenant sets
 * `request.principal`; `requireRole` then decides by role. Tenant-scoped routes take the tenant from
 * the principal only, never from the URL or body.
 */
import type { Db } from '@platform/db';
import { AppError } from '@platform/kernel';
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';

import { uuidParam } from '../../openapi/routes.js';
import { sessionStanding } from '../accounts/sessions.repo.js';
import { type AccessTokenKeys, verifyAccessToken } from './access-token.js';
import type { Principal, Role } from './principal.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

export interface AuthGuardDeps {
  db: Db;
  tokenKeys: AccessTokenKeys;
}

const BEARER = /^Bearer ([A-Za-z0-9_\-.]+)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function authenticate(deps: AuthGuardDeps): preHandlerAsyncHookHandler {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const m = BEARER.exec(req.headers.authorization ?? '');
    if (!m) {
      reply.header('www-authenticate', 'Bearer');
      throw new AppError('AUTH_REQUIRED', 'Sign in and send the access token as `Authorization: Bearer <token>`.');
    }
    const principal = await verifyAccessToken(deps.tokenKeys, m[1]!);
    if (!UUID.test(principal.tenantId)) throw new AppError('TOKEN_INVALID', 'The access token is not valid.');
    // The tenant may have been suspended since the token was issued (tokens live minutes, not days);
    // a token of a sign-in session also dies with the session (logout, logout-all, password reset,
    // removal) and carries the member's current role, not the one at issue.
    const row = await sessionStanding(deps.db, {
      tenantId: principal.tenantId,
      sessionId: principal.sessionId ?? null,
      userId: UUID.test(principal.userId) ? principal.userId : null,
    });
    const status = row?.status;
    if (status === 'suspended' || status === 'deleted')
      throw new AppError('TENANT_SUSPENDED', 'This company account is suspended.');
    if (status !== 'active') throw new AppError('TOKEN_INVALID', 'The access token is not valid.');
    if (principal.sessionId) {
      if (!row?.live || !row.role) throw new AppError('TOKEN_INVALID', 'The access token is not valid.');
      principal.role = row.role;
    }
    req.principal = principal;
  };
}

export function requireRole(...roles: Role[]): preHandlerAsyncHookHandler {
  return async (req: FastifyRequest) => {
    const p = req.principal;
    if (!p) throw new AppError('AUTH_REQUIRED', 'Sign in first.');
    if (!roles.includes(p.role))
      throw new AppError('ROLE_FORBIDDEN', `Your role (${p.role}) may not do this.`, {
        details: { required_roles: roles },
      });
  };
}

/** The principal of a route behind `authenticate` (a programming error when the guard is missing). */
export function principalOf(req: FastifyRequest): Principal {
  if (!req.principal) throw new AppError('AUTH_REQUIRED', 'Sign in first.');
  return req.principal;
}

/** `/api/tenants/{id}/...`: the id must be the signed-in tenant's; anything else is not found. */
/**
 * What a route of the caller's own tenant `:id` starts with: a signed-in member, the id a UUID. Its
 * handler still calls assertOwnTenant, which answers 404 for any other tenant.
 */
export const ownTenantRoute = (deps: AuthGuardDeps) => ({
  security: 'bearer' as const,
  preHandler: [authenticate(deps)],
  params: uuidParam('id'),
});

export function assertOwnTenant(req: FastifyRequest, tenantId: string): Principal {
  const p = principalOf(req);
  if (p.tenantId !== tenantId) throw new AppError('NOT_FOUND', 'No such tenant.');
  return p;
}
