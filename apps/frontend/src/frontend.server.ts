/**
 * Starts the frontend: platform database (migrated when it owns it), bundles, app, listen. Used by
 * `npm run start:frontend` (main.ts) and by the single-process platform (apps/platform).
 */
import { type Db, migratePlatform, openDb } from '@platform/db';
import { createLogger, listenAndTrack } from '@platform/http-kit';
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

const trustProxy = (v: string | undefined) =>
  v
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : false;

export async function startFrontend(config: FrontendConfig, opts: StartFrontendOptions = {}): Promise<RunningFrontend> {
  const logger = opts.logger ?? (createLogger(config.LOG_LEVEL, 'frontend') as unknown as FastifyBaseLogger);
  const ownDb = !opts.db;
  const db =
    opts.db ??
    (await openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, name: 'platform', owner: true }));
  try {
    if (ownDb) await migratePlatform(db);
    const deps = await composeFrontend(config, db);
    const app = await buildFrontendApp(deps, { logger, trustProxy: trustProxy(config.TRUST_PROXY) });
    const running = await listenAndTrack(app, config.FRONTEND_HOST, config.FRONTEND_PORT);
    if (deps.localCaptcha) {
      deps.localCaptcha.bind(`http://127.0.0.1:${running.port}`);
      logger.warn(
        'contact page bot check: no CAPTCHA_SECRET_KEY, so the LOCAL siteverify stand-in is in use (embedded mode only)',
      );
    }
    let closing: Promise<void> | undefined;
    return {
      url: running.url,
      app,
      close: () =>
        (closing ??= (async () => {
          await running.close();
          if (ownDb) await db.close();
        })()),
    };
  } catch (e) {
    if (ownDb) await db.close();
    throw e;
  }
}
