/** `npm run start:erp`: the embedded ERP as its own process. */
import { ConfigError } from '@platform/kernel';
import { loadErpConfig, type ErpConfig } from './erp.config.js';
import { startErp } from './erp.server.js';

let config: ErpConfig;
try {
  config = loadErpConfig();
} catch (e) {
  if (!(e instanceof ConfigError)) throw e;
  process.stderr.write(`${e.message}\n`);
  process.exit(1);
}
const server = await startErp(config);
process.stdout.write(`embedded ERP listening on ${server.url} (database ${config.ERP_DB})\n`);

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  process.stdout.write(`${signal}: closing the ERP\n`);
  server.close().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
