/**
 * Starts the frontend: platform database (migrated when it owns it), bundles, app, listen. Used by
 * `npm run start:frontend` (main.ts) and by the single-process platform (apps/platform).
 */
import { type Db, openDb } from '@platform/db';
import { createLogger, parseTrustProxy, startHttpService } from '@platform/http-kit';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

import { composeFrontend } from './deps.js';
import type { FrontendConfig } from './frontend.config.js';
import { buildFrontendApp } from './frontend.http-app.js';

export interface RunningFrontend {
  url: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

export interface StartFrontendOptions {
  /** A platform database already opened and migrated (shared with the other services in one process). */
  db?: Db;
  logger?: FastifyBaseLogger;
}

export async function startFrontend(config: FrontendConfig, opts: StartFrontendOptions = {}): Promise<RunningFrontend> {
  const logger = opts.logger ?? (createLogger(config.LOG_LEVEL, 'frontend') as unknown as FastifyBaseLogger);
  return startHttpService({
    db: opts.db,
    open: () => openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, name: 'platform', owner: true }),
    host: config.FRONTEND_HOST,
    port: config.FRONTEND_PORT,
    build: async (db) => {
      const deps = await composeFrontend(config, db);
      return { app: await buildFrontendApp(deps, { logger, trustProxy: parseTrustProxy(config.TRUST_PROXY) }), deps };
    },
    listening: ({ deps }, { port }) => {
      if (!deps.localCaptcha) return;
      deps.localCaptcha.bind(`http://127.0.0.1:${port}`);
      logger.warn(
        'contact page bot check: no CAPTCHA_SECRET_KEY, so the LOCAL siteverify stand-in is in use (embedded mode only)',
      );
    },
  });
}
