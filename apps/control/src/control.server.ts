/**
 * Starts the control plane: platform database (migrated when it owns it), app, listen. Used by
 * `npm run start:control` (main.ts) and by the single-process platform (apps/platform).
 */
import { type Db, openDb } from '@platform/db';
import { createLogger, parseTrustProxy, startHttpService } from '@platform/http-kit';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

import type { ControlConfig } from './control.config.js';
import { buildControlApp } from './control.http-app.js';
import { composeControl, type ControlDeps } from './deps.js';

export interface RunningControl {
  url: string;
  app: FastifyInstance;
  deps: ControlDeps;
  close(): Promise<void>;
}

export interface StartControlOptions {
  /** A platform database already opened and migrated (shared with the other services in one process). */
  db?: Db;
  logger?: FastifyBaseLogger;
}

export async function startControl(config: ControlConfig, opts: StartControlOptions = {}): Promise<RunningControl> {
  const logger = opts.logger ?? (createLogger(config.LOG_LEVEL, 'control') as unknown as FastifyBaseLogger);
  return startHttpService({
    db: opts.db,
    open: () => openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, name: 'platform', owner: true }),
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
      deps.signup.localCaptcha.bind(url);
      logger.warn(
        'sign-up bot check: no CAPTCHA_SECRET_KEY, so the LOCAL siteverify stand-in is in use (embedded mode only)',
      );
    },
  });
}
