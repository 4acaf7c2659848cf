/**
 * Starts the embedded ERP: opens its database (PostgreSQL or its own PGlite under DATA_DIR/erp),
 * creates the default ERP database on first start, makes sure the platform has an API key, listens.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { migratePlatform, openDb, type Db } from '@platform/db';
import { EmbeddedErp } from '@platform/erp-embedded';
import { buildErpApp } from './erp.app.js';
import type { ErpConfig } from './erp.config.js';
import { composeIntegrations } from './features/integrations/integrations.deps.js';
import { composeRestApi, REST_DEFAULTS, type RestApiDeps } from './features/restapi/restapi.deps.js';
import { restApiErp } from './features/restapi/restapi-erp.js';
import { ensureDefaultTenant } from './features/tenancy/default-tenant.repo.js';
import { composeEmailAdmin, EmailWebhookService, SuppressionService } from '@platform/email';
import { secretBoxFromConfig } from '@platform/secrets';

export const PLATFORM_KEY_NAME = 'platform integration';

function writeSecret(path: string, value: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, `${value}\n`, { mode: 0o600 });
}

/** Creates ERP_DB when missing; the generated admin password is printed once and kept 0600. */
export async function ensureDefaultDatabase(erp: EmbeddedErp, config: ErpConfig): Promise<void> {
  if (await erp.databaseExists(config.ERP_DB)) return;
  const { adminPassword } = await erp.createDatabase(config.ERP_DB, { adminPassword: config.ERP_ADMIN_PASSWORD });
  if (!config.ERP_ADMIN_PASSWORD) {
    const file = join(config.DATA_DIR, 'erp-admin-password');
    writeSecret(file, adminPassword);
    process.stdout.write(`ERP database "${config.ERP_DB}" created. Admin login: admin, password: ${adminPassword}\n` +
      `(shown once; also saved to ${file})\n`);
  }
}

/**
 * Keeps `${DATA_DIR}/erp-platform-api-key` holding a live key "platform integration" of admin, so the
 * platform can authenticate in embedded mode. A key is only ever stored hashed, so when the file is
 * gone or its key was revoked the old keys of that name are revoked and a new one is written.
 */
export async function ensurePlatformApiKey(erp: EmbeddedErp, config: ErpConfig): Promise<void> {
  const file = join(config.DATA_DIR, 'erp-platform-api-key');
  const current = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
  if (current && (await erp.authenticate(config.ERP_DB, 'admin', current)) !== false) return;
  for (const k of await erp.listApiKeys(config.ERP_DB)) {
    if (k.name === PLATFORM_KEY_NAME && k.login === 'admin') await erp.revokeApiKey(config.ERP_DB, k.id);
  }
  const { key } = await erp.createApiKey(config.ERP_DB, 'admin', PLATFORM_KEY_NAME);
  writeSecret(file, key);
}

/**
 * Replicas starting together on one PostgreSQL take turns: otherwise both see no database and the
 * second createDatabase fails, or one revokes the platform key the other has just written.
 */
async function oneAtATime(db: Db, fn: () => Promise<void>): Promise<void> {
  // A PGlite data directory belongs to one process, and its only session is busy during a transaction.
  if (db.engine !== 'pg') return fn();
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['erp:startup']);
    await fn();
  });
}

/**
 * The REST API's tables live in the platform database. On PostgreSQL that is DATABASE_URL, which the
 * ERP shares; on PGlite a data directory belongs to one process, so a standalone ERP keeps them in its
 * own files (DATA_DIR/erp), migrated with the platform migrations, unless the caller passes its handle.
 */
async function composeRest(config: ErpConfig, erp: EmbeddedErp, platformDb: Db): Promise<RestApiDeps | undefined> {
  if (config.RESTAPI === 'off') return undefined;
  await migratePlatform(platformDb);
  const tenantId = await ensureDefaultTenant(platformDb, config.DEFAULT_TENANT_SLUG ?? 'default');
  const { erp: port, verifyLogin } = restApiErp(config, erp);
  const d = REST_DEFAULTS;
  return composeRestApi({
    db: platformDb,
    tenantId,
    erp: port,
    verifyLogin,
    publicUrl: config.ERP_PUBLIC_URL,
    rateLimit: { max: config.RESTAPI_RATE_LIMIT ?? d.rateLimit.max, windowSeconds: config.RESTAPI_RATE_WINDOW_S ?? d.rateLimit.windowSeconds },
    pageSizes: { pageSize: config.RESTAPI_PAGE_SIZE ?? d.pageSizes.pageSize, maxPageSize: config.RESTAPI_MAX_PAGE_SIZE ?? d.pageSizes.maxPageSize },
    ttl: { codeS: config.OAUTH_CODE_TTL_S ?? d.ttl.codeS, accessS: config.OAUTH_ACCESS_TOKEN_TTL_S ?? d.ttl.accessS, refreshS: config.OAUTH_REFRESH_TOKEN_TTL_S ?? d.ttl.refreshS },
  });
}

export interface StartErpOptions {
  /** The platform database, when the caller has it open (one process with the platform, PGlite). */
  platformDb?: Db;
}

export async function startErp(
  config: ErpConfig,
  logger?: FastifyBaseLogger,
  opts: StartErpOptions = {},
): Promise<{ url: string; erp: EmbeddedErp; restapi: RestApiDeps | undefined; close(): Promise<void> }> {
  const db = await openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, name: 'erp', owner: true });
  let closePlatform: () => Promise<void> = async () => {};
  try {
    const erp = new EmbeddedErp(db);
    await oneAtATime(db, async () => {
      await ensureDefaultDatabase(erp, config);
      await ensurePlatformApiKey(erp, config);
    });
    // Platform tables (REST credentials, integration settings) live in the platform database: the
    // shared PostgreSQL, or PGlite's DATA_DIR/platform, as for the landing host and the worker.
    const ownPlatformDb = !opts.platformDb && !config.DATABASE_URL;
    const platformDb = opts.platformDb ?? (config.DATABASE_URL ? db : await openDb({ dataDir: config.DATA_DIR, name: 'platform', owner: true }));
    closePlatform = ownPlatformDb ? () => platformDb.close() : async () => {};
    const restapi = await composeRest(config, erp, platformDb);
    await migratePlatform(platformDb);
    const integrations = composeIntegrations(config, platformDb, await ensureDefaultTenant(platformDb, config.DEFAULT_TENANT_SLUG), restApiErp(config, erp).verifyLogin);
    const emailWebhooks = new EmailWebhookService(platformDb, config, new SuppressionService(platformDb));
    const emailAdmin = composeEmailAdmin(config, platformDb, secretBoxFromConfig(config), integrations.tenantId);
    const app = buildErpApp({ erp, restapi, integrations, logger, logLevel: config.LOG_LEVEL, emailWebhooks, emailAdmin, sessionTtlSeconds: config.ERP_SESSION_TTL_S });
    await app.listen({ port: config.ERP_PORT, host: config.ERP_HOST });
    const { port } = app.server.address() as AddressInfo;
    const host = config.ERP_HOST === '0.0.0.0' || config.ERP_HOST === '::' ? '127.0.0.1' : config.ERP_HOST;
    let closing: Promise<void> | undefined;
    return {
      url: `http://${host}:${port}`,
      erp,
      restapi,
      // Fastify's close stops accepting and lets in-flight requests finish before the db closes.
      close: () => (closing ??= app.close().then(() => db.close()).then(closePlatform)),
    };
  } catch (e) {
    await db.close();
    await closePlatform();
    throw e;
  }
}
