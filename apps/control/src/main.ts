/** `npm run start:control`: the control plane as its own process. */
import { onNamedPort, runService } from '@platform/http-kit';

import { loadControlConfig } from './control.config.js';
import { startControl } from './control.server.js';

await runService('control', async () => {
  const config = loadControlConfig();
  const control = await onNamedPort(
    { variable: 'CONTROL_PORT', host: config.CONTROL_HOST, port: config.CONTROL_PORT },
    () => startControl(config),
  );
  process.stdout.write(`control plane listening on ${control.url}\n`);
  return control;
});
