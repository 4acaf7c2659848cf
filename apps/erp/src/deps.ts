/**
 * Composition root of the ERP host: the only place that constructs its parts. `composeErpHost`
 * opens the databases, runs each start-up step once (ERP database and platform key, platform
 * migrations, default tenant), picks the ERP behind the REST API, and builds the app from the REST
 * API with OAuth (restapi.compose.ts), the integrations, the email routes, the RPC gateway and the
 * web sessions. The smaller compositions below are what the tests use; the `with…Cli` ones, the CLIs.
 */
import { type Db, migratePlatform, openDb } from '@platform/db';
import {
  composeEmailAdmin,
  composeEmailWebhooks,
  type EmailAdminService,
  type EmailWebhookService,
} from '@platform/email';
import { EmbeddedErp } from '@platform/erp-embedded';
import { chatOrigins, createAccountingServices, IntegrationSettingsService, SmsService } from '@platform/integrations';
import { ConfigError } from '@platform/kernel';
import { justCallSmsAdapters, normalizeSmsPhone, xeroAccountingAdaptersOf } from '@platform/providers';
import { secretBoxFromConfig } from '@platform/secrets';
import { findTenantBySlug } from '@platform/tenancy';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

import type { ErpConfig } from './erp.config.js';
import { buildErpHttpApp, type ErpAppParts } from './erp.http-app.js';
import { ensureDefaultDatabase, ensurePlatformApiKey, oneAtATime } from './erp.startup.js';
import { masterPassword } from './erp.startup.js';
import type { IntegrationsDeps } from './features/integrations/integrations.types.js';
import { tenantAdminLogin } from './features/integrations/tenant-admin-login.js';
import { composeErpMetrics } from './features/metrics/erp-metrics.js';
import { RpcGateway } from './features/rpc/rpc-gateway.js';
import { ensureDefaultTenant } from './features/tenancy/default-tenant.repo.js';
import { SessionRepo } from './features/websession/session.repo.js';
import { WebSessions } from './features/websession/websession.service.js';
import { composeCredentials, composeRestApi, type RestApiDeps, restApiErp, restApiOptions } from './restapi.compose.js';

/** How an accounting admin's login is checked: the host's ERP for its own tenant, the embedded ERP's databases for others. */
export interface IntegrationAdminLogins {
  hostVerify(login: string, password: string): Promise<boolean>;
  embeddedVerify(erpDb: string, login: string, password: string): Promise<boolean>;
}

/** The tenant a URL or the CLI names by slug (active tenants only: others have no integrations to serve). */
const activeTenantBySlug = (db: Db) => async (slug: string) => {
  const t = await findTenantBySlug(db, slug);
  return t && t.status === 'active' ? { id: t.id, slug: t.slug, isDefault: t.is_default } : undefined;
};

/**
 * The ERP host's integration services (settings, SMS; accounting when `logins` is given) for every
 * tenant: `tenantId` is the host's own (unsegmented URLs, REST credentials), others are named by slug.
 */
export function composeIntegrations(
  config: ErpConfig,
  db: Db,
  tenantId: string,
  logins?: IntegrationAdminLogins,
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
  const accounting = logins
    ? {
        services: createAccountingServices(db, settings, xeroAccountingAdaptersOf(config)),
        verifyAdmin: tenantAdminLogin({ db, box, hostTenantId: tenantId, ...logins }),
        adminLogins: config.ACCT_ADMIN_LOGINS.split(',')
          .map((l) => l.trim())
          .filter(Boolean),
        ...(config.ERP_PUBLIC_URL ? { publicUrl: config.ERP_PUBLIC_URL } : {}),
      }
    : undefined;
  return {
    tenantId,
    tenantBySlug: activeTenantBySlug(db),
    settings,
    sms: new SmsService(db, settings, justCallSmsAdapters({ baseUrl: config.SMS_API_URL })),
    ...(accounting ? { accounting } : {}),
  };
}

export interface ErpAppInput extends Pick<ErpAppParts, 'metrics' | 'emailUnsubscribeDb'> {
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
    const erp = new EmbeddedErp(db, { masterPassword: masterPassword(config) });
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
    const restErp = restApiErp(config, erp);
    const restapi =
      config.RESTAPI === 'off' ? undefined : composeRestApi(restApiOptions(config, platformDb, tenantId, restErp));
    const integrations = composeIntegrations(config, platformDb, tenantId, {
      hostVerify: restErp.verifyLogin,
      embeddedVerify: async (erpDb, login, password) => (await erp.authenticate(erpDb, login, password)) !== false,
    });
    const app = composeErpApp({
      erp,
      restapi,
      integrations,
      logLevel: config.LOG_LEVEL,
      ...(opts.logger ? { logger: opts.logger } : {}),
      emailWebhooks: composeEmailWebhooks(config, platformDb),
      emailUnsubscribeDb: platformDb,
      emailAdmin: composeEmailAdmin(config, platformDb, secretBoxFromConfig(config), tenantId),
      sessionTtlSeconds: config.ERP_SESSION_TTL_S,
      metrics: composeErpMetrics(config),
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

/** `npm run integrations`: the integration settings in the platform database (the CLI picks the tenant). */
export async function withIntegrationsCli<T>(config: ErpConfig, run: (d: IntegrationsDeps) => Promise<T>): Promise<T> {
  const db = await openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, name: 'platform' });
  try {
    await migratePlatform(db);
    return await run(composeIntegrations(config, db, await ensureDefaultTenant(db, config.DEFAULT_TENANT_SLUG)));
  } finally {
    await db.close();
  }
}
