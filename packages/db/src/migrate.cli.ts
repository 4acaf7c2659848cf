/** `npm run migrate`: applies the platform migrations to DATABASE_URL or the PGlite under DATA_DIR. */
import { runCliMain } from '@platform/kernel';

import { loadDbConfig } from './db.config.js';
import { migratePlatform } from './migrate.js';
import { openDb } from './open-db.js';

const USAGE = `usage: npm run migrate    applies the platform's SQL migrations to DATABASE_URL, or to the PGlite
                          database under DATA_DIR (through the running platform when it owns it)`;

await runCliMain(USAGE, async (argv) => {
  if (argv.length) throw new Error(`unexpected argument "${argv[0]}"`);
  const cfg = loadDbConfig();
  const db = await openDb({ databaseUrl: cfg.DATABASE_URL, dataDir: cfg.DATA_DIR, name: 'platform' });
  try {
    const applied = await migratePlatform(db);
    console.log(applied.length ? `applied: ${applied.join(', ')}` : 'platform database is up to date');
    return 0;
  } finally {
    await db.close();
  }
});
