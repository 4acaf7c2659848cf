/** `npm start`: the whole platform in one process (embedded ERP, landing host, worker). */
import { runService } from '@platform/http-kit';

import { startPlatform } from './platform.js';

await runService('platform', async () => {
  const platform = await startPlatform(process.env, { docs: true, backups: true, workerMetrics: true });
  process.stdout.write(`platform ready\n  landing host: ${platform.landingUrl}\n  ERP:          ${platform.erpUrl}\n`);
  process.stdout.write(`  control plane: ${platform.controlUrl}\n`);
  process.stdout.write(`  frontend:     ${platform.frontendUrl}\n`);
  if (platform.docsUrl) process.stdout.write(`  docs site:    ${platform.docsUrl}\n`);
  if (platform.workerMetricsUrl) process.stdout.write(`  worker metrics: ${platform.workerMetricsUrl}\n`);
  return platform;
});
