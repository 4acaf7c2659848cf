/**
 * `npm run erp -- <command>`: administration of the embedded ERP. Works while the platform runs: on
 * PGlite the running process serves its databases to the CLI (packages/db pglite.serve.ts).
 *   apikey create --login admin --description "..." [--db platform]   prints the key once
 *   apikey list [--db platform] | apikey revoke <id> [--db platform]
 *   db list | db create <name> | db drop <name>
 *   seed [--db platform]   demo data of a window-covering business (idempotent)
 */
import { parseArgs } from 'node:util';

import { type EmbeddedErp, seedDemo } from '@platform/erp-embedded';
import { runCliMain } from '@platform/kernel';

import { withEmbeddedErpCli } from './deps.js';
import { loadErpConfig } from './erp.config.js';

export const USAGE = `usage: npm run erp -- apikey create --login <login> --description <text> [--db <name>]
       npm run erp -- apikey list [--db <name>]
       npm run erp -- apikey revoke <id> [--db <name>]
       npm run erp -- db list | db create <name> | db drop <name>
       npm run erp -- seed [--db <name>]`;

export async function runCli(
  argv: string[],
  erp: EmbeddedErp,
  defaultDb: string,
  out: (s: string) => void,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { login: { type: 'string' }, description: { type: 'string' }, db: { type: 'string' } },
  });
  const [group, cmd, arg] = positionals;
  const dbName = values.db ?? defaultDb;
  if (group === 'apikey' && cmd === 'create') {
    if (!values.description) throw new Error('--description is required');
    const { id, key } = await erp.createApiKey(dbName, values.login ?? 'admin', values.description);
    out(`API key ${id} created for ${values.login ?? 'admin'} on ${dbName}. It is shown only once:\n${key}`);
  } else if (group === 'apikey' && cmd === 'list') {
    for (const k of await erp.listApiKeys(dbName)) {
      out(`${k.id}\t${k.login}\t${k.name}\tcreated ${k.createDate}\tlast used ${k.lastUsed ?? 'never'}`);
    }
  } else if (group === 'apikey' && cmd === 'revoke' && arg && /^\d+$/.test(arg)) {
    if (!(await erp.revokeApiKey(dbName, Number(arg)))) throw new Error(`no API key ${arg} on ${dbName}`);
    out(`API key ${arg} revoked`);
  } else if (group === 'db' && cmd === 'list') {
    for (const n of await erp.listDatabases()) out(n);
  } else if (group === 'db' && cmd === 'create' && arg) {
    const { adminPassword } = await erp.createDatabase(arg);
    out(`database ${arg} created. Admin login: admin, password (shown once): ${adminPassword}`);
  } else if (group === 'db' && cmd === 'drop' && arg) {
    await erp.dropDatabase(arg);
    out(`database ${arg} dropped`);
  } else if (group === 'seed' && !cmd) {
    const { created, existing } = await seedDemo(erp, dbName);
    out(
      created
        ? `demo data seeded in ${dbName}: ${created} records created, ${existing} already there`
        : `demo data already in ${dbName} (${existing} records): nothing to do`,
    );
  } else {
    out(USAGE);
    return 2;
  }
  return 0;
}

const isMain = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop()!);
if (isMain) {
  await runCliMain(USAGE, async (argv) => {
    const config = loadErpConfig();
    return withEmbeddedErpCli(config, (erp) => runCli(argv, erp, config.ERP_DB, (s) => process.stdout.write(`${s}\n`)));
  });
}
