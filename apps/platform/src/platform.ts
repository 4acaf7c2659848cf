/**
 * `npm start`: every service in one process on embedded defaults. The embedded ERP (unless ERP_URL
 * points at another ERP, e.g. a real Odoo 15), the landing host and the worker share one platform
 * database; the landing host wakes the worker after each accepted submission.
 */
import { loadControlConfig } from '@platform/app-control/control.config.js';
import { startControl } from '@platform/app-control/control.server.js';
import { PAYMENTS_WEBHOOK_PATH } from '@platform/app-control/features/payments/payments.compose.js';
import { loadDocsConfig } from '@platform/app-docs/docs.config.js';
import { startDocs } from '@platform/app-docs/docs.server.js';
import { loadErpConfig } from '@platform/app-erp/erp.config.js';
import { startErp } from '@platform/app-erp/erp.server.js';
import { loadFrontendConfig } from '@platform/app-frontend/frontend.config.js';
import { startFrontend } from '@platform/app-frontend/frontend.server.js';
import { loadLandingConfig, loadLandingObjectStore } from '@platform/app-landing/config.js';
import { startLanding } from '@platform/app-landing/server.js';
import { loadWorkerConfig } from '@platform/app-worker/config.js';
import { workerTenantErps } from '@platform/app-worker/erp-connections.js';
import { startBackupJob } from '@platform/app-worker/features/backup/backup.job.js';
import { startWorkerMetrics } from '@platform/app-worker/features/metrics/worker-metrics.js';
import { startWorker } from '@platform/app-worker/worker.js';
import { loadBackupConfig } from '@platform/backup';
import { type Db, migratePlatform, openDb } from '@platform/db';
import type { Erp } from '@platform/erp';
import { assertPortsFree, createLogger, onNamedPort } from '@platform/http-kit';
import type { EnvSource } from '@platform/kernel';
import type { FastifyBaseLogger } from 'fastify';

import { tightenDataDir, tightenedMessage } from './data-dir.js';
import { startLocalProviders } from './local-providers.js';
import { pointAtLocalProviders } from './local-settings.js';
import { loadPlatformConfig } from './platform.config.js';
import { listeningPorts } from './platform.ports.js';

export interface RunningPlatform {
  landingUrl: string;
  /** The embedded ERP's URL, or ERP_URL when an outside ERP is used. */
  erpUrl: string;
  /** The platform's own ERP client (the default ERP database), for operators and tests. */
  erp: Erp;
  /** The platform database this process owns (PGlite allows one owner: tests read it through here). */
  db: Db;
  /** The control plane's URL (CONTROL_PORT, default 8003). */
  controlUrl: string;
  /** The worker's /metrics listener (undefined unless asked for, or WORKER_METRICS_PORT=0). */
  workerMetricsUrl?: string | undefined;
  /** The frontend's URL (FRONTEND_PORT, default 8000): field app, quote portal, contact page. */
  frontendUrl: string;
  /** The docs site's URL (undefined when DOCS=off). */
  docsUrl?: string | undefined;
  /** The local stand-ins' console (embedded defaults), and whether its mailbox runs (`/mail`). */
  localConsole?: { url: string; mail: boolean };
  /** Longest a graceful shutdown may take (SHUTDOWN_TIMEOUT_MS) before the process exits anyway. */
  shutdownDeadlineMs: number;
  /** Writes out the log lines still buffered, so what is printed next comes after them. */
  flushLogs(): Promise<void>;
  close(): Promise<void>;
}

/** What `npm start` adds to the three services; off by default so tests and benches stay small. */
export interface PlatformExtras {
  /** The docs site on DOCS_PORT (8002). */
  docs?: boolean;
  /** The scheduled backup job (BACKUP_INTERVAL_H). */
  backups?: boolean;
  /** The worker's /metrics listener on WORKER_METRICS_PORT (9464); off in tests (a fixed port). */
  workerMetrics?: boolean;
  /** Fastify's per-request log lines at debug instead of info, so the console shows start-up and problems. */
  requestsAtDebug?: boolean;
}

export async function startPlatform(
  baseEnv: EnvSource = process.env,
  extras: PlatformExtras = {},
): Promise<RunningPlatform> {
  // Validate every service's configuration before starting any of them.
  const platformConfig = loadPlatformConfig(baseEnv);
  const base = loadLandingConfig(baseEnv);
  const erpBase = baseEnv.ERP_URL ? undefined : loadErpConfig(baseEnv);
  const workerBase = loadWorkerConfig(baseEnv);
  const backupConfig = loadBackupConfig(baseEnv);
  const docsConfig = loadDocsConfig(baseEnv);
  const controlBase = loadControlConfig(baseEnv);
  const frontendBase = loadFrontendConfig(baseEnv);
  const ports = listeningPorts({
    platform: platformConfig,
    landing: base,
    erp: erpBase,
    worker: workerBase,
    docs: docsConfig,
    control: controlBase,
    frontend: frontendBase,
    extras,
  });
  // A busy port stops start-up here, named by its variable, before anything is opened.
  await assertPortsFree(Object.values(ports));
  // Owner-only files: an older, looser install is tightened before anything opens it (data-dir.ts).
  const firstPass = tightenDataDir(base.DATA_DIR);
  // One platform database for every service of this process: the ERP host's REST and integration
  // tables, the landing host's submissions and the worker's outbox (PGlite allows one owner).
  const db = await openDb({ databaseUrl: base.DATABASE_URL, dataDir: base.DATA_DIR, name: 'platform', owner: true });
  // What has started, closed in reverse when a later step fails: nothing half-started stays listening.
  const started: (() => Promise<unknown>)[] = [() => db.close()];
  const track = <T extends { close(): Promise<unknown> } | undefined>(x: T): T => {
    if (x) started.push(() => x.close());
    return x;
  };
  try {
    // On embedded defaults the outside providers are local stand-ins (local-providers.ts).
    const local = track(await startLocalProviders(platformConfig));
    const env: EnvSource = { ...baseEnv, ...local?.env };
    const landingConfig = loadLandingConfig(env);
    const erpConfig = env.ERP_URL ? undefined : loadErpConfig(env);
    const logger = createLogger(landingConfig.LOG_LEVEL, undefined, {
      requestsAt: extras.requestsAtDebug ? 'debug' : 'info',
      // npm start (requestsAtDebug) prints its start-up block after the log lines: write them in order.
      syncStdout: Boolean(extras.requestsAtDebug),
    });
    const loose = tightenedMessage(base.DATA_DIR, firstPass);
    if (loose) logger.warn(loose);
    await migratePlatform(db);
    const erpServer = erpConfig
      ? track(
          await onNamedPort(ports.erp!, () =>
            startErp(erpConfig, logger.child({ name: 'erp' }) as unknown as FastifyBaseLogger, { platformDb: db }),
          ),
        )
      : undefined;
    // Embedded defaults: outbound webhooks may also go to a receiver on this machine.
    const embedded = erpServer ? { WEBHOOK_ALLOW_LOOPBACK: 'on', ...env, ERP_URL: erpServer.url } : env;
    const workerConfig = loadWorkerConfig(embedded);
    const worker = track(await startWorker(workerConfig, { db, logger: logger.child({ name: 'worker' }) }));
    const workerMetrics = extras.workerMetrics
      ? track(await onNamedPort(ports.workerMetrics!, () => startWorkerMetrics(workerConfig, worker.metrics)))
      : undefined;
    const landing = track(
      await onNamedPort(ports.landing, () =>
        startLanding(landingConfig, {
          db,
          logger: logger.child({ name: 'landing' }) as unknown as FastifyBaseLogger,
          onAccepted: () => worker.wake(),
          // The control plane's store (same STORAGE_* variables): the editor's uploads are the site's /media.
          objects: loadLandingObjectStore(landingConfig.DATA_DIR, env),
        }),
      ),
    );
    const control = track(
      await onNamedPort(ports.control, () =>
        startControl(loadControlConfig(embedded), {
          db,
          logger: logger.child({ name: 'control' }) as unknown as FastifyBaseLogger,
        }),
      ),
    );
    const frontend = track(
      await onNamedPort(ports.frontend, () =>
        startFrontend(loadFrontendConfig({ ...env, CONTROL_URL: control.url }), {
          db,
          logger: logger.child({ name: 'frontend' }) as unknown as FastifyBaseLogger,
        }),
      ),
    );
    // Links to tenant hosts (portal, invitations) use the port the frontend really listens on.
    control.deps.publicOrigins.frontendListensOn(frontend.url);
    // "View site" and the draft preview open the tenant's site where the landing really listens.
    control.deps.publicOrigins.landingListensOn(landing.url);
    // Daily backups; on PGlite this process owns the files, so it hands the open databases over.
    const backups = !extras.backups
      ? undefined
      : track(
          await startBackupJob(backupConfig, {
            logger: logger.child({ name: 'backup' }),
            db,
            ...(backupConfig.DATABASE_URL
              ? {}
              : { pgliteDbs: erpServer ? { platform: db, erp: erpServer.db } : { platform: db } }),
          }),
        );
    const docs = !extras.docs
      ? undefined
      : track(
          await onNamedPort(ports.docs!, () =>
            startDocs(docsConfig, logger.child({ name: 'docs' }) as unknown as FastifyBaseLogger),
          ),
        );
    const consoleUrl =
      local && erpServer
        ? await onNamedPort(ports.localConsole!, () =>
            pointAtLocalProviders(local, erpServer.url, db, workerConfig, logger),
          )
        : undefined;
    // The payments receiver is the control plane's; the stand-in's Connect events go straight to it.
    local?.registerStripeWebhook(PAYMENTS_WEBHOOK_PATH, control.url);
    // PGlite's first files come with its own modes (0666, 0644): owner-only now that everything is open.
    tightenDataDir(base.DATA_DIR);
    let closing: Promise<void> | undefined;
    return {
      landingUrl: landing.url,
      erpUrl: workerConfig.ERP_URL,
      controlUrl: control.url,
      frontendUrl: frontend.url,
      docsUrl: docs?.url,
      workerMetricsUrl: workerMetrics && `${workerMetrics.url}/metrics`,
      ...(local && consoleUrl ? { localConsole: { url: consoleUrl, mail: Boolean(local.mail) } } : {}),
      erp: workerTenantErps(workerConfig, db).defaultErp(),
      db,
      shutdownDeadlineMs: workerConfig.SHUTDOWN_TIMEOUT_MS,
      flushLogs: () => new Promise<void>((resolve) => logger.flush(() => resolve())),
      // Stop taking requests, finish and release outbox work, then close the databases.
      close: () =>
        (closing ??= (async () => {
          await landing.close();
          await frontend.close();
          await control.close();
          await docs?.close();
          await backups?.close();
          await workerMetrics?.close();
          await worker.close();
          await erpServer?.close();
          await db.close();
          await local?.close();
          tightenDataDir(base.DATA_DIR); // files PGlite rewrote while running (pg_internal.init, 0644)
        })()),
    };
  } catch (e) {
    for (const close of started.reverse()) await close().catch(() => undefined);
    throw e;
  }
}
