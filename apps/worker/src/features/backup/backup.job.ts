/**
 * The scheduled backup job of the worker (docs/backups.md): daily by default (BACKUP_INTERVAL_H),
 * pruned by BACKUP_KEEP_DAILY / BACKUP_KEEP_WEEKLY. On PostgreSQL a pg_dump of DATABASE_URL; in the
 * single-process platform on PGlite, the open platform and ERP databases dump themselves.
 */
import { type BackupConfig, type BackupSchedule, composeBackups, startBackupSchedule } from '@platform/backup';
import { type Db, openDb } from '@platform/db';

interface Logger {
  info(o: object, msg: string): void;
  error(o: object, msg: string): void;
}

export async function startBackupJob(
  config: BackupConfig,
  opts: { logger: Logger; db?: Db; pgliteDbs?: Record<string, Db> },
): Promise<BackupSchedule | undefined> {
  if (config.BACKUP_INTERVAL_H === 0) return undefined;
  // The lock between replicas needs a PostgreSQL handle; a small pool of its own when none is shared.
  const own =
    !opts.db && config.DATABASE_URL
      ? await openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, name: 'platform', poolSize: 1 })
      : undefined;
  const schedule = startBackupSchedule({
    service: composeBackups(config, opts.pgliteDbs ?? {}),
    intervalH: config.BACKUP_INTERVAL_H,
    policy: { daily: config.BACKUP_KEEP_DAILY, weekly: config.BACKUP_KEEP_WEEKLY },
    ...((opts.db ?? own) ? { db: (opts.db ?? own)! } : {}),
    logger: opts.logger,
  });
  return {
    tick: () => schedule.tick(),
    close: async () => {
      await schedule.close();
      await own?.close();
    },
  };
}
