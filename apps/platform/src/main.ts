/** `npm start`: the whole platform in one process (embedded ERP, landing host, worker, …). */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { loadLandingConfig } from '@platform/app-landing/config.js';
import { runService } from '@platform/http-kit';

import { startPlatform } from './platform.js';
import { DOCS_PASSWORD_FILE, ERP_ADMIN_PASSWORD_FILE, startUpBlock } from './start-up-block.js';

await runService('platform', async () => {
  const env = process.env;
  const landing = loadLandingConfig(env);
  const secrets = [ERP_ADMIN_PASSWORD_FILE, DOCS_PASSWORD_FILE];
  const missingBefore = new Set(secrets.filter((f) => !existsSync(join(landing.DATA_DIR, f))));
  const platform = await startPlatform(env, { docs: true, backups: true, workerMetrics: true, requestsAtDebug: true });
  await platform.flushLogs();
  process.stdout.write(
    startUpBlock({
      ...platform,
      embeddedErp: !env.ERP_URL,
      dataDir: landing.DATA_DIR,
      tenantsHost: landing.TENANTS_HOST,
      localCaptcha: !landing.CAPTCHA_SECRET_KEY,
      erpAdminPasswordFromEnv: Boolean(env.ERP_ADMIN_PASSWORD),
      docsPasswordFromEnv: Boolean(env.DOCS_PASSWORD),
      createdThisStart: new Set([...missingBefore].filter((f) => existsSync(join(landing.DATA_DIR, f)))),
      requestsAtDebug: true,
    }),
  );
  return platform;
});
