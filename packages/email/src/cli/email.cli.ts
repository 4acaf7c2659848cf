/** `npm run email -- …`: previews, the suppression list and sending domains (email.commands.ts). */
import { migratePlatform, openDb } from '@platform/db';
import { AppError, ConfigError } from '@platform/kernel';
import { secretBoxFromConfig } from '@platform/secrets';

import { sendingDomainsFrom } from '../admin/email-admin.compose.js';
import { runEmailCli } from './email.commands.js';
import { loadEmailCliConfig } from './email-cli.config.js';

let config;
try {
  config = loadEmailCliConfig();
} catch (e) {
  if (!(e instanceof ConfigError)) throw e;
  process.stderr.write(`${e.message}\n`);
  process.exit(1);
}
// The platform database (with PGlite, stop `npm start` first: one process owns its files).
const db = await openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, name: 'platform' });
try {
  await migratePlatform(db);
  const domains = sendingDomainsFrom(config, db, secretBoxFromConfig(config));
  process.exitCode = await runEmailCli(process.argv.slice(2), { db, config, domains }, (s) =>
    process.stdout.write(`${s}\n`),
  );
} catch (e) {
  const fields =
    e instanceof AppError && e.fieldIssues?.length
      ? `\n${e.fieldIssues.map((f) => `  ${f.field}: ${f.message}`).join('\n')}`
      : '';
  process.stderr.write(`error: ${e instanceof AppError ? `${e.code}: ` : ''}${(e as Error).message}${fields}\n`);
  process.exitCode = 1;
} finally {
  await db.close();
}
