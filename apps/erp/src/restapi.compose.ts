/**
 * The REST API's part of the ERP host's composition root (deps.ts calls it): which ERP the API fronts
 * (the embedded one through the in-process adapter, or an outside Odoo), its keys, OAuth, audit trail
 * and limits, and the options read from the configuration. The only place these are constructed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { type ApiKeysService, type AuditService, composeApiKeys } from '@platform/credentials';
import type { Db } from '@platform/db';
import { createOdooErp, createOdooRpcClient, type Erp } from '@platform/erp';
import type { EmbeddedErp } from '@platform/erp-embedded';
import { createEmbeddedErpAdapter } from '@platform/erp-embedded/embedded-erp.adapter.js';
import { RateLimiter } from '@platform/http-kit';
import type { FastifyRequest } from 'fastify';

import type { ErpConfig } from './erp.config.js';
import { PLATFORM_KEY_FILE } from './erp.startup.js';
import { AuthFailures } from './features/credentials/auth-failures.js';
import { OAuthService, type OAuthTtls } from './features/oauth/oauth.service.js';
import { OAuthAppsService } from './features/oauth/oauth-apps.service.js';
import { OAuthGrantsRepo } from './features/oauth/oauth-grants.repo.js';
import { ActingUsers } from './features/restapi/acting-users.js';
import { RestAuth } from './features/restapi/restapi.auth.js';
import { type PageSizes, RestApiService } from './features/restapi/restapi.service.js';

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

/** The REST API with its keys, OAuth and audit trail (docs/rest-api.md). */
export interface RestApiDeps {
  audit: AuditService;
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
  // Shared with the control plane's console (packages/credentials): the plan's API access is read per call.
  const { audit, keys } = composeApiKeys(db, tenantId);
  const grants = new OAuthGrantsRepo(db, tenantId);
  return {
    audit,
    grants,
    keys,
    apps: new OAuthAppsService(db, tenantId, audit, grants),
  };
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

export interface RestErp {
  erp: Erp;
  verifyLogin(login: string, password: string): Promise<boolean>;
}

/**
 * The ERP behind the REST API, always through the `Erp` port: the embedded ERP of this process
 * (in-process adapter, service account `admin` with the platform API key kept in
 * DATA_DIR/erp-platform-api-key), or an outside Odoo 15 (RESTAPI_ERP_URL with ERP_LOGIN/ERP_API_KEY).
 */
export function restApiErp(
  config: Pick<ErpConfig, 'ERP_DB' | 'DATA_DIR' | 'RESTAPI_ERP_URL' | 'ERP_LOGIN' | 'ERP_API_KEY'>,
  embedded: EmbeddedErp,
): RestErp {
  if (config.RESTAPI_ERP_URL && config.ERP_API_KEY) {
    const rpc = createOdooRpcClient({ url: config.RESTAPI_ERP_URL });
    return {
      erp: createOdooErp({
        url: config.RESTAPI_ERP_URL,
        db: config.ERP_DB,
        login: config.ERP_LOGIN ?? 'admin',
        secret: config.ERP_API_KEY,
      }),
      verifyLogin: async (login, password) => {
        const uid = await rpc.call('common', 'authenticate', [config.ERP_DB, login, password, {}]);
        return typeof uid === 'number' && uid > 0;
      },
    };
  }
  const keyFile = join(config.DATA_DIR, PLATFORM_KEY_FILE);
  return {
    erp: createEmbeddedErpAdapter(embedded, {
      db: config.ERP_DB,
      login: 'admin',
      secret: () => readFileSync(keyFile, 'utf8').trim(),
    }),
    verifyLogin: async (login, password) => (await embedded.authenticate(config.ERP_DB, login, password)) !== false,
  };
}

/** The REST API's options from the host's configuration (limits, page sizes, token lifetimes). */
export function restApiOptions(
  config: ErpConfig,
  db: Db,
  tenantId: string,
  { erp, verifyLogin }: RestErp,
): RestApiOptions {
  const d = REST_DEFAULTS;
  return {
    db,
    tenantId,
    erp,
    verifyLogin,
    publicUrl: config.ERP_PUBLIC_URL,
    rateLimit: {
      max: config.RESTAPI_RATE_LIMIT ?? d.rateLimit.max,
      windowSeconds: config.RESTAPI_RATE_WINDOW_S ?? d.rateLimit.windowSeconds,
    },
    pageSizes: {
      pageSize: config.RESTAPI_PAGE_SIZE ?? d.pageSizes.pageSize,
      maxPageSize: config.RESTAPI_MAX_PAGE_SIZE ?? d.pageSizes.maxPageSize,
    },
    ttl: {
      codeS: config.OAUTH_CODE_TTL_S ?? d.ttl.codeS,
      accessS: config.OAUTH_ACCESS_TOKEN_TTL_S ?? d.ttl.accessS,
      refreshS: config.OAUTH_REFRESH_TOKEN_TTL_S ?? d.ttl.refreshS,
    },
  };
}
