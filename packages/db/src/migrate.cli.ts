/** `npm run migrate`: applies the platform migrations to DATABASE_URL or the PGlite under DATA_DIR. */
import { loadDbConfig } from './db.config.js';
import { migratePlatform } from './migrate.js';
import { openDb } from './open-db.js';

const cfg = loadDbConfig();
const db = await openDb({ databaseUrl: cfg.DATABASE_URL, dataDir: cfg.DATA_DIR, name: 'platform' });
try {
  const applied = await migratePlatform(db);
  console.log(applied.length ? `applied: ${applied.join(', ')}` : 'platform database is up to date');
} finally {
  await db.close();
}
