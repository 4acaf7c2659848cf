/**
 * `npm run outbox -- <command>`: operate the outbox of the platform database. Works while the
 * platform runs: on PGlite the running process serves its database to the CLI.
 *   stats               counts by status
 *   list [status]       rows of a status (default dead) with their last error
 *   replay [id ...]     send dead letters again (all, or the given ids)
 */
import { migratePlatform, openDb } from '@platform/db';
import { runCliMain } from '@platform/kernel';
import { countByStatus, listByStatus, type OutboxRow, replayDead } from '@platform/outbox';

import { loadWorkerConfig } from './config.js';

export const USAGE = `usage: npm run outbox -- stats              counts by status
       npm run outbox -- list [status]      rows of a status (default dead) with their last error
       npm run outbox -- replay [id ...]    send dead letters again (all, or the given ids)`;
const STATUSES = ['pending', 'processing', 'done', 'dead'];

await runCliMain(USAGE, async ([command = 'stats', ...args]) => {
  if (!['stats', 'list', 'replay'].includes(command)) {
    process.stderr.write(`error: unknown command "${command}"\n${USAGE}\n`);
    return 2;
  }
  const config = loadWorkerConfig();
  const db = await openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, name: 'platform' });
  try {
    await migratePlatform(db);
    if (command === 'stats') {
      console.log(JSON.stringify(await countByStatus(db)));
    } else if (command === 'list') {
      const status = args[0] ?? 'dead';
      if (!STATUSES.includes(status)) throw new Error(`status must be one of ${STATUSES.join(', ')}`);
      for (const r of await listByStatus(db, status as OutboxRow['status'])) {
        console.log(`${r.id}\t${r.topic}\t${r.status}\tattempts=${r.attempts}\t${r.last_error ?? ''}`);
      }
    } else {
      const ids = args.map(Number).filter((n) => Number.isInteger(n) && n > 0);
      const n = await replayDead(db, ids.length ? ids : undefined);
      console.log(`${n} dead letter(s) queued again`);
    }
    return 0;
  } finally {
    await db.close();
  }
});
