/** `npm run start:erp`: the embedded ERP as its own process. */
import { onNamedPort, runService } from '@platform/http-kit';

import { loadErpConfig } from './erp.config.js';
import { startErp } from './erp.server.js';

await runService('erp', async () => {
  const config = loadErpConfig();
  const server = await onNamedPort({ variable: 'ERP_PORT', host: config.ERP_HOST, port: config.ERP_PORT }, () =>
    startErp(config),
  );
  process.stdout.write(`embedded ERP listening on ${server.url} (database ${config.ERP_DB})\n`);
  return server;
});
