/**
 * Used by pglite.serve.test.ts: owns a PGlite data directory (argv[2]) and keeps incrementing a
 * counter in read-then-write transactions until SIGTERM; then prints how many it made and exits.
 */
import { createPgliteDb } from './pglite.client.js';

const db = await createPgliteDb({ dataDir: process.argv[2]! });
await db.exec(
  'CREATE TABLE IF NOT EXISTS counter (id int PRIMARY KEY, n int NOT NULL); INSERT INTO counter VALUES (1, 0) ON CONFLICT DO NOTHING',
);
let stopping = false;
let made = 0;
process.on('SIGTERM', () => (stopping = true));
process.stdout.write('ready\n');
while (!stopping) {
  await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ n: number }>('SELECT n FROM counter WHERE id = 1');
    await new Promise((r) => setTimeout(r, 2)); // let a served client try to get in between
    await tx.query('UPDATE counter SET n = $1 WHERE id = 1', [rows[0]!.n + 1]);
  });
  made++;
}
await db.close();
process.stdout.write(`${made}\n`);
