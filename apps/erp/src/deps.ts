/**
 * Composition root of the ERP host: the only place that constructs its parts. `composeErpHost`
 * opens the databases, runs each start-up step once (ERP database and platform key, platform
 * migrations, default tenant), picks the ERP behind the REST API, and builds the app from the REST
 * API with OAuth, the integrations, the email routes, the RPC gateway and the web sessions. The
 * smaller compositions below are what the tests use; the `with…Cli` ones, the CLIs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { type Db, migratePlatform, openDb } from '@platform/db';
import { composeEmailAdmin, type EmailAdminService, EmailWebhookService, SuppressionService } from '@platform/email';
import { createOdooErp, createOdooRpcClient, type Erp } from '@platform/erp';
import { EmbeddedErp } from '@platform/erp-embedded';
import { createEmbeddedErpAdapter } from '@platform/erp-embedded/embedded-erp.adapter.js';
import { RateLimiter } from '@platform/http-kit';
import { chatOrigins, createAccountingServices, IntegrationSettingsService, SmsService } from '@platform/integrations';
import { ConfigError } from '@platform/kernel';
import { justCallSmsAdapters, normalizeSmsPhone, xeroAccountingAdapters } from '@platform/providers';
import { secretBoxFromConfig } from '@platform/secrets';
import { assertTenantFeature } from '@platform/tenancy';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';

import type { ErpConfig } from './erp.config.js';
import { buildErpHttpApp } from './erp.http-app.js';
import { ensureDefaultDatabase, ensurePlatformApiKey, oneAtATime, PLATFORM_KEY_FILE } from './erp.startup.js';
import { AuditRepo } from './features/credentials/audit.repo.js';
import { AuditService } from './features/credentials/audit.service.js';
import { AuthFailures } from './features/credentials/auth-failures.js';
import type { IntegrationsDeps } from './features/integrations/integrations.types.js';
import { OAuthService, type OAuthTtls } from './features/oauth/oauth.service.js';
import { OAuthAppsService } from './features/oauth/oauth-apps.service.js';
import { OAuthGrantsRepo } from './features/oauth/oauth-grants.repo.js';
import { ActingUsers } from './features/restapi/acting-users.js';
import { ApiKeysService } from './features/restapi/api-keys.service.js';
import { RestAuth } from './features/restapi/restapi.auth.js';
import { type PageSizes, RestApiService } from './features/restapi/restapi.service.js';
import { RpcGateway } from './features/rpc/rpc-gateway.js';
import { ensureDefaultTenant } from './features/tenancy/default-tenant.repo.js';
import { SessionRepo } from './features/websession/session.repo.js';
import { WebSessions } from './features/websession/websession.service.js';

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
  const audit = new AuditService(new AuditRepo(db, tenantId));
  const grants = new OAuthGrantsRepo(db, tenantId);
  // The tenant's plan decides whether its REST API works at all (read per call: a downgrade applies at once).
  const apiAccess = () => assertTenantFeature(db, tenantId, 'api_access');
  return {
    audit,
    grants,
    keys: new ApiKeysService(db, tenantId, audit, apiAccess),
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

/** The ERP host's integration services (settings, SMS; accounting when `verifyLogin` is given). */
export function composeIntegrations(
  config: ErpConfig,
  db: Db,
  tenantId: string,
  verifyLogin?: (login: string, password: string) => Promise<boolean>,
): IntegrationsDeps {
  let box;
  try {
    box = secretBoxFromConfig(config);
  } catch (e) {
    throw new ConfigError(`Invalid configuration:\n  ${(e as Error).message}`);
  }
  const settings = new IntegrationSettingsService(
    db,
    box,
    (raw) => normalizeSmsPhone(raw, config.SMS_DEFAULT_REGION),
    chatOrigins(config.CHAT_ALLOWED_ORIGINS),
  );
  const accounting = verifyLogin
    ? {
        services: createAccountingServices(
          db,
          settings,
          xeroAccountingAdapters({
            loginUrl: config.ACCT_LOGIN_URL,
            identityUrl: config.ACCT_IDENTITY_URL,
            apiUrl: config.ACCT_API_URL,
          }),
        ),
        verifyAdmin: verifyLogin,
        adminLogins: config.ACCT_ADMIN_LOGINS.split(',')
          .map((l) => l.trim())
          .filter(Boolean),
        ...(config.ERP_PUBLIC_URL ? { publicUrl: config.ERP_PUBLIC_URL } : {}),
      }
    : undefined;
  return {
    tenantId,
    settings,
    sms: new SmsService(db, settings, justCallSmsAdapters({ baseUrl: config.SMS_API_URL })),
    ...(accounting ? { accounting } : {}),
  };
}

export interface ErpAppInput {
  erp: EmbeddedErp;
  /** The REST API (`/restapi/1.0/...`); its AuthFailures also audit and limit failed RPC logins. */
  restapi?: RestApiDeps;
  integrations?: IntegrationsDeps;
  logger?: FastifyBaseLogger;
  logLevel?: string;
  emailWebhooks?: EmailWebhookService;
  emailAdmin?: EmailAdminService;
  /** Idle lifetime of a web session (default Odoo's week). */
  sessionTtlSeconds?: number;
}

/** The HTTP app over an embedded ERP: one RPC gateway behind every codec, and its web sessions. */
export function composeErpApp(input: ErpAppInput): FastifyInstance {
  const { erp, sessionTtlSeconds, ...parts } = input;
  const gateway = new RpcGateway(erp, input.restapi?.failures);
  const webSessions = new WebSessions(gateway, new SessionRepo(erp.db), sessionTtlSeconds);
  return buildErpHttpApp({ ...parts, rpc: { gateway, webSessions } });
}

export interface ErpHost {
  app: FastifyInstance;
  erp: EmbeddedErp;
  restapi: RestApiDeps | undefined;
  /** The ERP's own database (the backup job dumps it on PGlite). */
  db: Db;
  /** Closes the databases this host opened (after the app has stopped). */
  closeDatabases(): Promise<void>;
}

export interface ErpHostOptions {
  logger?: FastifyBaseLogger;
  /** The platform database, when the caller has it open (one process with the platform, PGlite). */
  platformDb?: Db;
}

/**
 * The ERP's users live in its own database (PostgreSQL or DATA_DIR/erp); the REST API's and the
 * integrations' tables in the platform database: DATABASE_URL, which the ERP shares, or on PGlite
 * DATA_DIR/platform, unless the caller passes its handle.
 */
export async function composeErpHost(config: ErpConfig, opts: ErpHostOptions = {}): Promise<ErpHost> {
  const db = await openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, name: 'erp', owner: true });
  let closePlatform: () => Promise<void> = async () => {};
  try {
    const erp = new EmbeddedErp(db);
    await oneAtATime(db, async () => {
      await ensureDefaultDatabase(erp, config);
      await ensurePlatformApiKey(erp, config);
    });
    const ownPlatformDb = !opts.platformDb && !config.DATABASE_URL;
    const platformDb =
      opts.platformDb ??
      (config.DATABASE_URL ? db : await openDb({ dataDir: config.DATA_DIR, name: 'platform', owner: true }));
    closePlatform = ownPlatformDb ? () => platformDb.close() : async () => {};
    await migratePlatform(platformDb);
    const tenantId = await ensureDefaultTenant(platformDb, config.DEFAULT_TENANT_SLUG);
    const { erp: port, verifyLogin } = restApiErp(config, erp);
    const d = REST_DEFAULTS;
    const restapi =
      config.RESTAPI === 'off'
        ? undefined
        : composeRestApi({
            db: platformDb,
            tenantId,
            erp: port,
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
          });
    const integrations = composeIntegrations(config, platformDb, tenantId, verifyLogin);
    const app = composeErpApp({
      erp,
      restapi,
      integrations,
      logLevel: config.LOG_LEVEL,
      ...(opts.logger ? { logger: opts.logger } : {}),
      emailWebhooks: new EmailWebhookService(platformDb, config, new SuppressionService(platformDb)),
      emailAdmin: composeEmailAdmin(config, platformDb, secretBoxFromConfig(config), tenantId),
      sessionTtlSeconds: config.ERP_SESSION_TTL_S,
    });
    return { app, erp, restapi, db, closeDatabases: () => db.close().then(closePlatform) };
  } catch (e) {
    await db.close();
    await closePlatform();
    throw e;
  }
}

/** `npm run erp`: the embedded ERP over its database (on PGlite, served by the running platform). */
export async function withEmbeddedErpCli<T>(config: ErpConfig, run: (erp: EmbeddedErp) => Promise<T>): Promise<T> {
  const db = await openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, name: 'erp' });
  try {
    return await run(new EmbeddedErp(db));
  } finally {
    await db.close();
  }
}

/** `npm run restapi`: credentials in the platform database, users looked up in the ERP's (as composeErpHost). */
export async function withRestApiCli<T>(
  config: ErpConfig,
  run: (
    c: ReturnType<typeof composeCredentials>,
    userExists: (login: string) => Promise<boolean | undefined>,
  ) => Promise<T>,
): Promise<T> {
  return withEmbeddedErpCli(config, async (embedded) => {
    const db = config.DATABASE_URL ? embedded.db : await openDb({ dataDir: config.DATA_DIR, name: 'platform' });
    try {
      await migratePlatform(db);
      const tenantId = await ensureDefaultTenant(db, config.DEFAULT_TENANT_SLUG);
      const { erp } = restApiErp(config, embedded);
      return await run(composeCredentials(db, tenantId), (login) =>
        erp.searchCount('res.users', [['login', '=', login]]).then(
          (n) => n > 0,
          () => undefined,
        ),
      );
    } finally {
      if (db !== embedded.db) await db.close();
    }
  });
}

/** `npm run integrations`: the default tenant's integration settings in the platform database. */
export async function withIntegrationsCli<T>(config: ErpConfig, run: (d: IntegrationsDeps) => Promise<T>): Promise<T> {
  const db = await openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, name: 'platform' });
  try {
    await migratePlatform(db);
    return await run(composeIntegrations(config, db, await ensureDefaultTenant(db, config.DEFAULT_TENANT_SLUG)));
  } finally {
    await db.close();
  }
}
