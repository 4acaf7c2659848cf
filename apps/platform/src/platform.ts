/**
 * `npm start`: every service in one process on embedded defaults. The embedded ERP (unless ERP_URL
 * points at another ERP, e.g. a real Odoo 15), the landing host and the worker share one platform
 * database; the landing host wakes the worker after each accepted submission.
 */
import type { FastifyBaseLogger } from 'fastify';
import { migratePlatform, openDb } from '@platform/db';
import { createLogger } from '@platform/http-kit';
import type { EnvSource } from '@platform/kernel';
import type { Erp } from '@platform/erp';
import { loadErpConfig } from '@platform/app-erp/erp.config.js';
import { startErp } from '@platform/app-erp/erp.server.js';
import { loadLandingConfig } from '@platform/app-landing/config.js';
import { startLanding } from '@platform/app-landing/server.js';
import { loadWorkerConfig } from '@platform/app-worker/config.js';
import { startWorker } from '@platform/app-worker/worker.js';
import { ErpConnections } from '@platform/app-worker/erp-connections.js';

export interface RunningPlatform {
  landingUrl: string;
  /** The embedded ERP's URL, or ERP_URL when an outside ERP is used. */
  erpUrl: string;
  /** The platform's own ERP client (the default ERP database), for operators and tests. */
  erp: Erp;
  /** Longest a graceful shutdown may take (SHUTDOWN_TIMEOUT_MS) before the process exits anyway. */
  shutdownDeadlineMs: number;
  close(): Promise<void>;
}

export async function startPlatform(env: EnvSource = process.env): Promise<RunningPlatform> {
  // Validate every service's configuration before starting any of them.
  const landingConfig = loadLandingConfig(env);
  const erpConfig = env.ERP_URL ? undefined : loadErpConfig(env);
  loadWorkerConfig(env);

  const logger = createLogger(landingConfig.LOG_LEVEL);
  // One platform database for every service of this process: the ERP host's REST and integration
  // tables, the landing host's submissions and the worker's outbox (PGlite allows one owner).
  const db = await openDb({ databaseUrl: landingConfig.DATABASE_URL, dataDir: landingConfig.DATA_DIR, name: 'platform' });
  let erpServer: Awaited<ReturnType<typeof startErp>> | undefined;
  try {
    await migratePlatform(db);
    erpServer = erpConfig ? await startErp(erpConfig, logger.child({ name: 'erp' }) as unknown as FastifyBaseLogger, { platformDb: db }) : undefined;
    const workerConfig = loadWorkerConfig(erpServer ? { ...env, ERP_URL: erpServer.url } : env);
    const worker = await startWorker(workerConfig, { db, logger: logger.child({ name: 'worker' }) });
    const landing = await startLanding(landingConfig, {
      db,
      logger: logger.child({ name: 'landing' }) as unknown as FastifyBaseLogger,
      onAccepted: () => worker.wake(),
    });
    let closing: Promise<void> | undefined;
    return {
      landingUrl: landing.url,
      erpUrl: workerConfig.ERP_URL,
      erp: new ErpConnections(workerConfig).forDatabase(null),
      shutdownDeadlineMs: workerConfig.SHUTDOWN_TIMEOUT_MS,
      // Stop taking requests, finish and release outbox work, then close the databases.
      close: () =>
        (closing ??= (async () => {
          await landing.close();
          await worker.close();
          await erpServer?.close();
          await db.close();
        })()),
    };
  } catch (e) {
    await erpServer?.close();
    await db.close();
    throw e;
  }
}
