/**
 * Starts the control plane: platform database (migrated when it owns it), app, listen. Used by
 * `npm run start:control` (main.ts) and by the single-process platform (apps/platform).
 */
import { parseTrustProxy, platformHost, type PlatformHostOptions, startHttpService } from '@platform/http-kit';
import type { FastifyInstance } from 'fastify';

import type { ControlConfig } from './control.config.js';
import { buildControlApp } from './control.http-app.js';
import { composeControl, type ControlDeps } from './deps.js';

export interface RunningControl {
  url: string;
  app: FastifyInstance;
  deps: ControlDeps;
  close(): Promise<void>;
}

export type StartControlOptions = PlatformHostOptions;

export async function startControl(config: ControlConfig, opts: StartControlOptions = {}): Promise<RunningControl> {
  const { logger, ...platform } = platformHost('control', config, opts);
  return startHttpService({
    ...platform,
    host: config.CONTROL_HOST,
    port: config.CONTROL_PORT,
    build: async (db) => {
      const deps = composeControl(config, db);
      const app = await buildControlApp(deps, {
        logger,
        bodyLimit: config.BODY_LIMIT_BYTES,
        trustProxy: parseTrustProxy(config.TRUST_PROXY),
      });
      return { app, deps };
    },
    listening: ({ deps }, { url }) => {
      deps.embeddedObjects?.listeningOn(url);
      if (!deps.signup.localCaptcha) return;
      logger.warn(
        'sign-up bot check: no CAPTCHA_SECRET_KEY, so the LOCAL siteverify stand-in is in use (embedded mode only)',
      );
    },
  });
}
