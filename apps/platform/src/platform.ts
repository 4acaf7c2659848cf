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
import { loadBackupConfig } from '@platform/backup';
import { startBackupJob } from '@platform/app-worker/features/backup/backup.job.js';
import { loadDocsConfig } from '@platform/app-docs/docs.config.js';
import { startDocs } from '@platform/app-docs/docs.server.js';

export interface RunningPlatform {
  landingUrl: string;
  /** The embedded ERP's URL, or ERP_URL when an outside ERP is used. */
  erpUrl: string;
  /** The docs site's URL (undefined when DOCS=off). */
  docsUrl?: string | undefined;
  /** The platform's own ERP client (the default ERP database), for operators and tests. */
  erp: Erp;
  close(): Promise<void>;
}

/** What `npm start` adds to the three services; off by default so tests and benches stay small. */
export interface PlatformExtras {
  /** The docs site on DOCS_PORT (8002). */
  docs?: boolean;
  /** The scheduled backup job (BACKUP_INTERVAL_H). */
  backups?: boolean;
}

export async function startPlatform(env: EnvSource = process.env, extras: PlatformExtras = {}): Promise<RunningPlatform> {
  // Validate every service's configuration before starting any of them.
  const landingConfig = loadLandingConfig(env);
  const erpConfig = env.ERP_URL ? undefined : loadErpConfig(env);
  loadWorkerConfig(env);
  const backupConfig = loadBackupConfig(env);
  const docsConfig = loadDocsConfig(env);

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
    // Daily backups; on PGlite this process owns the files, so it hands the open databases over.
    const backups = !extras.backups ? undefined : await startBackupJob(backupConfig, {
      logger: logger.child({ name: 'backup' }),
      db,
      ...(backupConfig.DATABASE_URL ? {} : { pgliteDbs: erpServer ? { platform: db, erp: erpServer.db } : { platform: db } }),
    });
    const docs = !extras.docs ? undefined : await startDocs(docsConfig, logger.child({ name: 'docs' }) as unknown as FastifyBaseLogger);
    let closing: Promise<void> | undefined;
    return {
      landingUrl: landing.url,
      erpUrl: workerConfig.ERP_URL,
      docsUrl: docs?.url,
      erp: new ErpConnections(workerConfig).forDatabase(null),
      // Stop taking requests, finish and release outbox work, then close the databases.
      close: () =>
        (closing ??= (async () => {
          await landing.close();
          await docs?.close();
          await backups?.close();
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
