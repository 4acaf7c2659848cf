/** `npm run start:frontend`: the frontend as its own process (the control plane at CONTROL_URL). */
import { onNamedPort, runService } from '@platform/http-kit';

import { loadFrontendConfig } from './frontend.config.js';
import { startFrontend } from './frontend.server.js';

await runService('frontend', async () => {
  const config = loadFrontendConfig();
  const frontend = await onNamedPort(
    { variable: 'FRONTEND_PORT', host: config.FRONTEND_HOST, port: config.FRONTEND_PORT },
    () => startFrontend(config),
  );
  process.stdout.write(`frontend listening on ${frontend.url}\n`);
  return frontend;
});
