/**
 * Composition of the REST API feature (keys, OAuth, REST operations) from the platform database,
 * the tenant and an `Erp`. Used by erp.server.ts, the CLI and the tests.
 */
import type { FastifyRequest } from 'fastify';
import type { Db } from '@platform/db';
import type { Erp } from '@platform/erp';
import { RateLimiter } from '@platform/http-kit';
import { AuditRepo } from '../audit/audit.repo.js';
import { OAuthAppsService } from '../oauth/oauth-apps.service.js';
import { OAuthGrantsRepo } from '../oauth/oauth-grants.repo.js';
import { OAuthService, type OAuthTtls } from '../oauth/oauth.service.js';
import { ActingUsers } from './acting-users.js';
import { ApiKeysService } from './api-keys.service.js';
import { AuthFailures } from './auth-failures.js';
import { RestAuth } from './restapi.auth.js';
import { RestApiService, type PageSizes } from './restapi.service.js';

export interface RestApiOptions {
  db: Db;
  tenantId: string;
  erp: Erp;
  /** The ERP's `common.authenticate` for the consent page. */
  verifyLogin(login: string, password: string): Promise<boolean>;
  /** The OAuth issuer and OpenAPI server; taken from each request when absent. */
  publicUrl?: string | undefined;
  rateLimit?: { max: number; windowSeconds: number };
  pageSizes?: PageSizes;
  ttl?: Partial<OAuthTtls>;
  /** Consent-page sign-in attempts per IP and per login (default 10 per 60 s). */
  loginLimit?: { max: number; windowSeconds: number };
  limiter?: RateLimiter;
}

export interface RestApiDeps {
  audit: AuditRepo;
  keys: ApiKeysService;
  apps: OAuthAppsService;
  oauth: OAuthService;
  rest: RestApiService;
  auth: RestAuth;
  failures: AuthFailures;
  verifyLogin(login: string, password: string): Promise<boolean>;
  issuer(req: FastifyRequest): string;
}

export const REST_DEFAULTS = {
  rateLimit: { max: 120, windowSeconds: 60 },
  pageSizes: { pageSize: 80, maxPageSize: 500 },
  ttl: { codeS: 300, accessS: 900, refreshS: 30 * 86_400 },
};

/** Keys and applications only (the CLI): no ERP needed. */
export function composeCredentials(db: Db, tenantId: string) {
  const audit = new AuditRepo(db, tenantId);
  const grants = new OAuthGrantsRepo(db, tenantId);
  return { audit, grants, keys: new ApiKeysService(db, tenantId, audit), apps: new OAuthAppsService(db, tenantId, audit, grants) };
}

export function composeRestApi(o: RestApiOptions): RestApiDeps {
  const { audit, grants, keys, apps } = composeCredentials(o.db, o.tenantId);
  const limiter = o.limiter ?? new RateLimiter(o.db);
  const failures = new AuthFailures(audit, limiter, o.loginLimit);
  const oauth = new OAuthService(o.db, apps, grants, audit, { ...REST_DEFAULTS.ttl, ...o.ttl });
  const users = new ActingUsers(o.erp);
  const publicUrl = o.publicUrl?.replace(/\/+$/, '');
  return {
    audit,
    keys,
    apps,
    oauth,
    failures,
    rest: new RestApiService(o.erp, o.pageSizes ?? REST_DEFAULTS.pageSizes),
    auth: new RestAuth({ keys, oauth, users, failures, limiter, rateLimit: o.rateLimit ?? REST_DEFAULTS.rateLimit }),
    verifyLogin: o.verifyLogin,
    issuer: (req) => publicUrl ?? `${req.protocol}://${req.host}`,
  };
}
