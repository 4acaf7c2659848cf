/**
 * How a service that serves HTTP on the platform database starts and stops, written once: open the
 * database (and migrate it) unless the single-process platform hands over its own, build the app on
 * it, listen; close() lets in-flight requests finish (connection draining), stops what the build
 * started, then closes the database only if it was opened here. A failure part-way closes what was
 * opened, so nothing is left half-started.
 */
import { type Db, migratePlatform, openDb } from '@platform/db';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

import { createLogger } from './logger.js';
import { listenAndTrack } from './server-lifecycle.js';

export interface BuiltService {
  app: FastifyInstance;
  /** Stops what the build started (listeners, timers); runs after the server has closed. */
  stop?: () => Promise<void>;
}

export interface HttpServiceSpec<B extends BuiltService> {
  /** The platform database already opened and migrated by the caller, if any. */
  db?: Db;
  open: () => Promise<Db>;
  build: (db: Db) => Promise<B>;
  host: string;
  port: number;
  /** Called once listening (e.g. to point a local stand-in at the port actually taken). */
  listening?: (built: B, where: { url: string; port: number }) => void;
}

export type RunningHttpService<B extends BuiltService> = B & {
  url: string;
  db: Db;
  close(): Promise<void>;
};

export async function startHttpService<B extends BuiltService>(s: HttpServiceSpec<B>): Promise<RunningHttpService<B>> {
  const ownDb = !s.db;
  const db = s.db ?? (await s.open());
  let built: B | undefined;
  try {
    if (ownDb) await migratePlatform(db);
    built = await s.build(db);
    const running = await listenAndTrack(built.app, s.host, s.port);
    s.listening?.(built, running);
    const parts = built;
    let closing: Promise<void> | undefined;
    return {
      ...parts,
      url: running.url,
      db,
      close: () =>
        (closing ??= (async () => {
          await running.close();
          await parts.stop?.();
          if (ownDb) await db.close();
        })()),
    };
  } catch (e) {
    await built?.stop?.();
    if (ownDb) await db.close();
    throw e;
  }
}

/** What the single-process platform may hand a host it starts. */
export interface PlatformHostOptions {
  /** A platform database already opened and migrated (shared with the other services in one process). */
  db?: Db;
  logger?: FastifyBaseLogger;
}

/**
 * The part every host on the platform database starts with: its logger (the one given, else one named
 * `name` at the configured level) and the database (the one given, else opened from the config as
 * its owner), as `startHttpService` takes it.
 */
export function platformHost(
  name: string,
  config: { LOG_LEVEL: string; DATABASE_URL?: string | undefined; DATA_DIR: string },
  opts: PlatformHostOptions,
): { logger: FastifyBaseLogger; db: Db | undefined; open: () => Promise<Db> } {
  return {
    logger: opts.logger ?? (createLogger(config.LOG_LEVEL, name) as unknown as FastifyBaseLogger),
    db: opts.db,
    open: () => openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, name: 'platform', owner: true }),
  };
}
