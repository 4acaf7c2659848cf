/**
 * `npm run tenants -- <command>` (docs/control-plane.md, "Provisioning"): create, list, suspend,
 * resume, delete, route and purge tenants through the control plane's own services. Works while
 * `npm start` runs (on PGlite the running process serves the platform database to CLIs; the
 * embedded ERP answers JSON-RPC at ERP_URL) and without it: when nothing answers at ERP_URL and the
 * ERP is the embedded one, this process serves it on a loopback port for the command's duration
 * (tenant routings still record ERP_URL, where the platform serves it). It lives in apps/platform,
 * the one app allowed to compose the others (control plane + embedded ERP).
 * stdout carries the command's JSON lines only; everything else goes to stderr.
 */
import { loadControlConfig } from '@platform/app-control/control.config.js';
import { composeControl, erpMasterPassword } from '@platform/app-control/deps.js';
import { loadErpConfig } from '@platform/app-erp/erp.config.js';
import { startErp } from '@platform/app-erp/erp.server.js';
import { migratePlatform, openDb } from '@platform/db';
import { createOdooRpcClient } from '@platform/erp';
import { runCliMain } from '@platform/kernel';
import { ErpDatabases } from '@platform/tenancy';

import { needsEmbeddedErp, parseTenantsArgs, runTenantsCommand, USAGE } from './tenants.commands.js';

async function answers(url: string): Promise<boolean> {
  try {
    await createOdooRpcClient({ url, timeoutMs: 3_000 }).call('common', 'version', []);
    return true;
  } catch {
    return false;
  }
}

/** Runs `fn` with stdout diverted to stderr (the embedded ERP's first start prints its admin password). */
async function quietly<T>(fn: () => Promise<T>): Promise<T> {
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  try {
    return await fn();
  } finally {
    process.stdout.write = write;
  }
}

await runCliMain(USAGE, async (argv) => {
  const parsed = parseTenantsArgs(argv);
  const config = loadControlConfig();
  const db = await openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, name: 'platform' });
  let erpServer: Awaited<ReturnType<typeof startErp>> | undefined;
  try {
    await migratePlatform(db);
    let erpUrl = config.ERP_URL;
    if (needsEmbeddedErp(parsed) && !(await answers(erpUrl))) {
      const erpConfig = loadErpConfig({ ...process.env, ERP_PORT: '0', ERP_HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
      erpServer = await quietly(() => startErp(erpConfig, undefined, { platformDb: db }));
      erpUrl = erpServer.url;
    }
    const deps = composeControl(config, db, {
      databases: () =>
        new ErpDatabases({
          url: erpUrl,
          masterPassword: erpMasterPassword(config),
          timeoutMs: config.ERP_TIMEOUT_MS,
        }),
    });
    return await runTenantsCommand(deps, parsed);
  } finally {
    await erpServer?.close();
    await db.close();
  }
});
