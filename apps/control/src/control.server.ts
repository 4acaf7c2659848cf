/**
 * Starts the control plane: platform database (migrated when it owns it), app, listen. Used by
 * `npm run start:control` (main.ts) and by the single-process platform (apps/platform).
 */
import { type Db, migratePlatform, openDb } from '@platform/db';
import { createLogger, listenAndTrack } from '@platform/http-kit';
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

const trustProxy = (v: string | undefined) =>
  v
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : false;

export async function startControl(config: ControlConfig, opts: StartControlOptions = {}): Promise<RunningControl> {
  const logger = opts.logger ?? (createLogger(config.LOG_LEVEL, 'control') as unknown as FastifyBaseLogger);
  const ownDb = !opts.db;
  const db =
    opts.db ??
    (await openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, name: 'platform', owner: true }));
  try {
    if (ownDb) await migratePlatform(db);
    const deps = composeControl(config, db);
    const app = await buildControlApp(deps, {
      logger,
      bodyLimit: config.BODY_LIMIT_BYTES,
      trustProxy: trustProxy(config.TRUST_PROXY),
    });
    const running = await listenAndTrack(app, config.CONTROL_HOST, config.CONTROL_PORT);
    deps.embeddedObjects?.listeningOn(running.url);
    let closing: Promise<void> | undefined;
    return {
      url: running.url,
      app,
      deps,
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
