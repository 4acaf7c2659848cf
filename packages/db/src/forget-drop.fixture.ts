/** Used by db.test.ts: creates a scratch database, prints its name and exits without dropping it. */
import { createTestDb } from './test-db.js';

const t = await createTestDb();
await t.db.query('SELECT 1');
process.stdout.write(`${new URL(t.url!).pathname.slice(1)}\n`);
process.exit(0);
