/** `npm run start:landing`: the landing host as its own process. */
import { onNamedPort, runService } from '@platform/http-kit';

import { loadLandingConfig } from './config.js';
import { startLanding } from './server.js';

await runService('landing', async () => {
  const config = loadLandingConfig();
  if (!config.DATABASE_URL) {
    process.stderr.write(
      'note: no DATABASE_URL, so this landing host keeps its own PGlite; no separate worker can read it. Use `npm start` for the single-process embedded mode.\n',
    );
  }
  const landing = await onNamedPort(
    { variable: 'LANDING_PORT', host: config.LANDING_HOST, port: config.LANDING_PORT },
    () => startLanding(config),
  );
  process.stdout.write(`landing host listening on ${landing.url}\n`);
  return landing;
});
