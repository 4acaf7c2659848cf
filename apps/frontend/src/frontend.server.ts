/**
 * Starts the frontend: platform database (migrated when it owns it), bundles, app, listen. Used by
 * `npm run start:frontend` (main.ts) and by the single-process platform (apps/platform).
 */
import { parseTrustProxy, platformHost, type PlatformHostOptions, startHttpService } from '@platform/http-kit';
import type { FastifyInstance } from 'fastify';

import { composeFrontend } from './deps.js';
import type { FrontendConfig } from './frontend.config.js';
import { buildFrontendApp } from './frontend.http-app.js';

export interface RunningFrontend {
  url: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

export type StartFrontendOptions = PlatformHostOptions;

export async function startFrontend(config: FrontendConfig, opts: StartFrontendOptions = {}): Promise<RunningFrontend> {
  const { logger, ...platform } = platformHost('frontend', config, opts);
  return startHttpService({
    ...platform,
    host: config.FRONTEND_HOST,
    port: config.FRONTEND_PORT,
    build: async (db) => {
      const deps = await composeFrontend(config, db);
      return { app: await buildFrontendApp(deps, { logger, trustProxy: parseTrustProxy(config.TRUST_PROXY) }), deps };
    },
    listening: ({ deps }) => {
      if (!deps.localCaptcha) return;
      logger.warn(
        'contact page bot check: no CAPTCHA_SECRET_KEY, so the LOCAL siteverify stand-in is in use (embedded mode only)',
      );
    },
  });
}
