/**
 * `npm run outbox -- <command>`: operate the outbox of the platform database.
 *   stats               counts by status
 *   list [status]       rows of a status (default dead) with their last error
 *   replay [id ...]     send dead letters again (all, or the given ids)
 */
import { migratePlatform, openDb } from '@platform/db';
import { countByStatus, listByStatus, replayDead, type OutboxRow } from '@platform/outbox';
import { loadWorkerConfig } from './config.js';

const [command = 'stats', ...args] = process.argv.slice(2);
const config = loadWorkerConfig();
const db = await openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, name: 'platform' });
try {
  await migratePlatform(db);
  if (command === 'stats') {
    console.log(JSON.stringify(await countByStatus(db)));
  } else if (command === 'list') {
    const status = (args[0] ?? 'dead') as OutboxRow['status'];
    for (const r of await listByStatus(db, status)) {
      console.log(`${r.id}\t${r.topic}\t${r.status}\tattempts=${r.attempts}\t${r.last_error ?? ''}`);
    }
  } else if (command === 'replay') {
    const ids = args.map(Number).filter((n) => Number.isInteger(n) && n > 0);
    const n = await replayDead(db, ids.length ? ids : undefined);
    console.log(`${n} dead letter(s) queued again`);
  } else {
    console.error(`unknown command "${command}"; use stats, list [status] or replay [id ...]`);
    process.exitCode = 2;
  }
} finally {
  await db.close();
}
