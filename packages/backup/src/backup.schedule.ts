/**
 * The worker's backup job: wakes every hour (or every interval when shorter), and when the newest
 * complete backup is older than the interval takes one and prunes by the retention policy. Going by the
 * store rather than a timer from start means restarts neither skip nor repeat a day. On PostgreSQL an
 * advisory lock lets one worker replica of many do it.
 */
import type { Db } from '@platform/db';

import type { BackupService } from './backup.service.js';
import type { RetentionPolicy } from './retention.js';

export interface BackupSchedule {
  /** Runs one check now (tests, and the first one shortly after start). */
  tick(): Promise<'ran' | 'not-due' | 'busy'>;
  close(): Promise<void>;
}

interface Logger {
  info(o: object, msg: string): void;
  error(o: object, msg: string): void;
}

const LOCK_KEY = 'platform:backup';

export function startBackupSchedule(o: {
  service: BackupService;
  intervalH: number;
  policy: RetentionPolicy;
  /** The platform database, for the advisory lock between replicas (PostgreSQL). */
  db?: Db;
  logger: Logger;
  now?: () => number;
  firstCheckMs?: number;
}): BackupSchedule {
  const now = o.now ?? Date.now;
  const intervalMs = o.intervalH * 3_600_000;
  let running: Promise<'ran' | 'not-due' | 'busy'> | undefined;
  let closed = false;

  const due = async () => {
    const newest = (await o.service.list())[0];
    return !newest || now() - Date.parse(newest.createdAt) >= intervalMs - 60_000;
  };
  const once = async (): Promise<'ran' | 'not-due' | 'busy'> => {
    if (!(await due())) return 'not-due';
    const run = async () => {
      if (!(await due())) return 'not-due' as const;
      const m = await o.service.run();
      const pruned = await o.service.prune(o.policy);
      o.logger.info({ backup: m.id, databases: m.databases.length, objects: m.objects.length, pruned }, 'backup taken');
      return 'ran' as const;
    };
    if (o.db?.engine !== 'pg') return run();
    // Session-level lock on one pooled connection is not guaranteed; a transaction-level one is.
    return o.db.transaction(async (tx) => {
      const got = (await tx.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS ok', [LOCK_KEY]))
        .rows[0]?.ok;
      return got ? run() : ('busy' as const);
    });
  };
  const tick = () =>
    (running ??= once()
      .catch((e: unknown) => {
        o.logger.error({ err: { message: (e as Error).message } }, 'backup failed; retrying at the next check');
        return 'busy' as const;
      })
      .finally(() => (running = undefined)));

  const every = Math.min(intervalMs, 3_600_000);
  const first = o.intervalH > 0 ? setTimeout(() => void tick(), o.firstCheckMs ?? 30_000) : undefined;
  const timer = o.intervalH > 0 ? setInterval(() => void (closed || tick()), every) : undefined;
  first?.unref();
  timer?.unref();
  return {
    tick,
    async close() {
      closed = true;
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
