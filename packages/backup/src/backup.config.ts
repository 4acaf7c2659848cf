/** Environment of backups (the worker's schedule and `npm run backup`); the only reader of process.env here. */
import { join } from 'node:path';

import { activeKeyIdEnv, databaseEnvShape, type EnvSource, readConfig } from '@platform/kernel';
import { type Keyring, loadOrCreateLocalKeyring, parseKeyring } from '@platform/secrets';
import { loadStoreConfig, type StoreConfig } from '@platform/storage';
import { z } from 'zod';

const int = (min: number, max: number) =>
  z.coerce.number().int('must be an integer').min(min, `must be at least ${min}`).max(max, `must be at most ${max}`);

const backupEnvSchema = z.object({
  ...databaseEnvShape,
  BACKUP_KEYRING: z.string().optional(),
  BACKUP_ACTIVE_KEY: activeKeyIdEnv('BACKUP_KEYRING'),
  /** Hours between scheduled backups; 0 turns the schedule off. */
  BACKUP_INTERVAL_H: int(0, 24 * 31).default(24),
  BACKUP_KEEP_DAILY: int(1, 3650).default(7),
  BACKUP_KEEP_WEEKLY: int(0, 520).default(4),
});

export type BackupConfig = z.infer<typeof backupEnvSchema> & {
  target: StoreConfig;
  storage: StoreConfig;
  targetDir: string;
};

export function loadBackupConfig(env: EnvSource = process.env): BackupConfig {
  const c = readConfig(backupEnvSchema, env);
  // The embedded default target is ./backups beside DATA_DIR, not inside it: losing the data must not lose the backups.
  return {
    ...c,
    target: loadStoreConfig(env, 'BACKUP'),
    storage: loadStoreConfig(env, 'STORAGE'),
    targetDir: join(c.DATA_DIR, '..', 'backups'),
  };
}

/** BACKUP_KEYRING (`id:<base64 32 bytes>,…`), else a key generated once into DATA_DIR/backup-key/ (copy it somewhere safe). */
export function backupKeyring(c: BackupConfig): Keyring {
  if (!c.BACKUP_KEYRING) return loadOrCreateLocalKeyring(join(c.DATA_DIR, 'backup-key'));
  try {
    return parseKeyring(c.BACKUP_KEYRING, c.BACKUP_ACTIVE_KEY);
  } catch (e) {
    throw new Error(`BACKUP_KEYRING: ${(e as Error).message}`, { cause: e });
  }
}
