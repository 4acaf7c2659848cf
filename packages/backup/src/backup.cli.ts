/**
 * `npm run backup -- now | list | restore <id> | prune`. On PostgreSQL it runs beside live services
 * (pg_dump is a consistent snapshot; restore replaces the data, so stop the services first). On
 * PGlite the data directories belong to one process: stop `npm start` first (the scheduled job of
 * the running platform takes the daily backups).
 */
import type { Db } from '@platform/db';
import { usePrivateUmask } from '@platform/kernel';

import { composeBackups, databaseRestorer, openPgliteDatabases } from './backup.compose.js';
import { loadBackupConfig } from './backup.config.js';

// Backups and restored databases are owner-only whatever the umask (docs/backups.md).
usePrivateUmask();
const [cmd, arg] = process.argv.slice(2);
const config = loadBackupConfig();
const usage = 'usage: npm run backup -- now | list | restore <id> | prune';

async function withPgliteDbs<T>(fn: (dbs: Record<string, Db>) => Promise<T>): Promise<T> {
  // Fails with "already open in process N; ... stop it first" while `npm start` runs (PGlite).
  const dbs = await openPgliteDatabases(config);
  try {
    return await fn(dbs);
  } finally {
    for (const db of Object.values(dbs)) await db.close();
  }
}

try {
  if (cmd === 'now') {
    const m = await withPgliteDbs((dbs) => composeBackups(config, dbs).run());
    console.log(
      `backup ${m.id}: ${m.databases.map((d) => d.name).join(', ')} and ${m.objects.length} object(s), key ${m.keyId}`,
    );
  } else if (cmd === 'list') {
    const all = await composeBackups(config).list();
    if (!all.length) console.log('no backups');
    for (const b of all)
      console.log(
        `${b.id}  ${b.createdAt}  key ${b.keyId}  databases: ${b.databases.map((d) => d.name).join(',')}  objects: ${b.objects.length}`,
      );
  } else if (cmd === 'restore' && arg) {
    const m = await composeBackups(config).restore(
      arg,
      databaseRestorer(config, (line) => console.log(line)),
    );
    console.log(`restored ${m.id}: ${m.databases.map((d) => d.name).join(', ')} and ${m.objects.length} object(s)`);
  } else if (cmd === 'prune') {
    const gone = await composeBackups(config).prune({
      daily: config.BACKUP_KEEP_DAILY,
      weekly: config.BACKUP_KEEP_WEEKLY,
    });
    console.log(gone.length ? `deleted ${gone.join(', ')}` : 'nothing to prune');
  } else {
    console.error(usage);
    process.exitCode = 2;
  }
} catch (e) {
  console.error(`backup ${cmd ?? ''}: ${(e as Error).message}`);
  process.exitCode = 1;
}
