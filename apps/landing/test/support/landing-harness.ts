/**
 * Test harness: the landing host on a free port over a fresh migrated database (PGlite in memory, or
 * scratch PostgreSQL with TEST_DATABASE_URL), with the local siteverify stand-in minting tokens.
 */
import { createTestDb, type Db, migratePlatform } from '@platform/db';
import type { ObjectStore } from '@platform/storage';
import type { WebsiteSnapshotSource } from '@platform/website';
import type { FastifyBaseLogger } from 'fastify';

import { loadLandingConfig } from '../../src/config.js';
import { type RunningLanding, startLanding } from '../../src/server.js';

export interface TestLanding {
  url: string;
  db: Db;
  landing: RunningLanding;
  token(action?: string, opts?: { score?: number; hostname?: string }): Promise<string>;
  post(
    path: string,
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; headers: Headers; body: any }>;
  count(table: string): Promise<number>;
  /** Closes the landing host and drops the test database (also after the test closed the db). */
  close(): Promise<void>;
}

export async function startTestLanding(
  env: Record<string, string> = {},
  opts: { logger?: FastifyBaseLogger; site?: boolean; websites?: WebsiteSnapshotSource; objects?: ObjectStore } = {},
): Promise<TestLanding> {
  const t = await createTestDb(process.env, { migrated: true });
  await migratePlatform(t.db);
  const config = loadLandingConfig({
    LANDING_PORT: '0',
    LANDING_HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    SITE_NAME: 'Acme Blinds',
    ...env,
  });
  const landing = await startLanding(config, {
    db: t.db,
    site: opts.site ?? false,
    ...(opts.logger ? { logger: opts.logger } : {}),
    ...(opts.websites ? { websites: opts.websites } : {}),
    ...(opts.objects ? { objects: opts.objects } : {}),
  });
  const url = landing.url;
  return {
    url,
    db: t.db,
    landing,
    async token(action = 'estimate', opts = {}) {
      const r = await fetch(`${url}/local-captcha/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          action,
          hostname: opts.hostname ?? 'localhost',
          ...(opts.score === undefined ? {} : { score: opts.score }),
        }),
      });
      return ((await r.json()) as { token: string }).token;
    },
    async post(path, body, headers = {}) {
      const r = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await r.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        /* not JSON */
      }
      return { status: r.status, headers: r.headers, body: parsed };
    },
    async count(table) {
      const r = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
      return r.rows[0]!.n;
    },
    async close() {
      await landing.close();
      await t.drop();
    },
  };
}
