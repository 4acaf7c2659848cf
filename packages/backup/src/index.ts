export { BackupService, type BackupManifest, type BackupDeps, type DatabaseRestorer } from './backup.service.js';
export { loadBackupConfig, backupKeyring, type BackupConfig } from './backup.config.js';
export { composeBackups, databaseRestorer, openPgliteDatabases } from './backup.compose.js';
export { startBackupSchedule, type BackupSchedule } from './backup.schedule.js';
export { expiredBackups, type RetentionPolicy } from './retention.js';
export { encryptStream, decryptStream } from './backup-cipher.js';
export { pgDump, pgliteDump, pgRestore, pgliteRestore, type DatabaseDump } from './database-dump.js';
