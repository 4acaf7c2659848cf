/**
 * The worker: relays the outbox (submissions to the ERP, conversion events, ERP events, SMS, chat,
 * accounting, email lanes). Runs as its own process (main.ts) or inside the single-process platform,
 * sharing the platform database. Only starts and stops: deps.ts builds the parts.
 */
import { type Db, migratePlatform, openDb } from '@platform/db';
import { createLogger } from '@platform/http-kit';
import type { OutboxRelay } from '@platform/outbox';

import type { WorkerConfig } from './config.js';
import { composeWorker, type Logger } from './deps.js';
import type { WorkerMetrics } from './features/metrics/worker-metrics.js';

export interface RunningWorker {
  relay: OutboxRelay;
  /** Poll now (called by an in-process landing host after a commit). */
  wake(): void;
  close(): Promise<void>;
  /** Longest a graceful shutdown may take (SHUTDOWN_TIMEOUT_MS) before the process exits anyway. */
  shutdownDeadlineMs: number;
  /** What the worker's /metrics serves (main.ts and `npm start` listen on WORKER_METRICS_PORT). */
  metrics: WorkerMetrics;
}

export async function startWorker(
  config: WorkerConfig,
  opts: { db?: Db; logger?: Logger } = {},
): Promise<RunningWorker> {
  const logger = opts.logger ?? createLogger(config.LOG_LEVEL, 'worker');
  const ownDb = !opts.db;
  const db =
    opts.db ??
    (await openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, name: 'platform', owner: true }));
  if (ownDb) await migratePlatform(db);
  const parts = composeWorker(config, db, logger);
  const { relay, webhooks, email, metrics } = parts;
  const { feed, pruning, certificates, domainChecks, erpRecovery, accountingReconcile } = parts;
  relay.start();
  webhooks.start();
  email.start();
  feed?.start();
  pruning?.start();
  certificates?.start();
  domainChecks?.start();
  erpRecovery?.start();
  accountingReconcile?.start();
  let closing: Promise<void> | undefined;
  return {
    relay,
    metrics,
    wake: () => (relay.wake(), webhooks.wake(), email.wake()),
    shutdownDeadlineMs: config.SHUTDOWN_TIMEOUT_MS,
    // Stop finishes the rows in hand and releases claims before the database closes.
    close: () =>
      (closing ??= (async () => {
        await feed?.stop();
        await pruning?.stop();
        await certificates?.stop();
        await domainChecks?.stop();
        await erpRecovery?.stop();
        await accountingReconcile?.stop();
        await relay.stop();
        await webhooks.stop();
        await email.close();
        if (ownDb) await db.close();
      })()),
  };
}
