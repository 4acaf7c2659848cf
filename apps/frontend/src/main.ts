/** `npm run start:frontend`: the frontend as its own process (the control plane at CONTROL_URL). */
import { runService } from '@platform/http-kit';

import { loadFrontendConfig } from './frontend.config.js';
import { startFrontend } from './frontend.server.js';

await runService('frontend', async () => {
  const config = loadFrontendConfig();
  const frontend = await startFrontend(config);
  process.stdout.write(`frontend listening on ${frontend.url}\n`);
  return frontend;
});
