/** `npm run start:worker`: the outbox worker as its own process (needs the shared PostgreSQL). */
import { loadBackupConfig } from '@platform/backup';
import { createLogger, onNamedPort, runService } from '@platform/http-kit';
import { ConfigError } from '@platform/kernel';

import { loadWorkerConfig } from './config.js';
import { startBackupJob } from './features/backup/backup.job.js';
import { startWorkerMetrics } from './features/metrics/worker-metrics.js';
import { startWorker } from './worker.js';

await runService('worker', async () => {
  const config = loadWorkerConfig();
  if (!config.DATABASE_URL) {
    throw new ConfigError(
      "Invalid configuration:\n  DATABASE_URL: is required to run the worker as its own process (it must share the landing host's PostgreSQL); use `npm start` for the single-process embedded mode",
    );
  }
  const backupConfig = loadBackupConfig();
  const worker = await startWorker(config);
  const backups = await startBackupJob(backupConfig, { logger: createLogger(config.LOG_LEVEL, 'backup') });
  const metricsPort = {
    variable: 'WORKER_METRICS_PORT',
    host: config.WORKER_METRICS_HOST,
    port: config.WORKER_METRICS_PORT,
  };
  const metrics = await onNamedPort(metricsPort, () => startWorkerMetrics(config, worker.metrics)).catch(
    async (e: unknown) => {
      // Nothing half-started: the relay and the backup schedule stop before the message is printed.
      await backups?.close();
      await worker.close();
      throw e;
    },
  );
  process.stdout.write('worker started: relaying the outbox\n');
  if (metrics) process.stdout.write(`worker metrics: ${metrics.url}/metrics\n`);
  return { close: async () => (await metrics?.close(), await backups?.close(), await worker.close()) };
});
