/**
 * The platform side of bench:intake, in its own process: the landing host exactly as it runs
 * (startLanding, site pages off), embedded bot check (no CAPTCHA_SECRET_KEY, so the local siteverify
 * stand-in is mounted at /local-captcha), LOG_LEVEL silent, no double-submit folding.
 *
 * Env (set by intake.bench.ts): BENCH_DATABASE_URL (PostgreSQL) or BENCH_DATA_DIR (PGlite).
 * BENCH_PLATFORM_VARIANT (diagnosis only; the bench's figures use none): `nolog` builds the same app
 * with Fastify's logger off instead of a silent pino logger.
 */
import { migratePlatform, openDb } from '@platform/db';
import { listenAndTrack } from '@platform/http-kit';
import { loadLandingConfig } from '../../apps/landing/src/config.js';
import { startLanding, type RunningLanding } from '../../apps/landing/src/server.js';
import { composeLanding } from '../../apps/landing/src/deps.js';
import { buildLandingApp } from '../../apps/landing/src/app.js';
import { ensureDefaultTenant } from '../../apps/landing/src/features/tenancy/tenant.repo.js';
import { countAnswers, serveCommands, type ChildMessage } from './child-ipc.js';

const env: Record<string, string> = {
  LANDING_HOST: '127.0.0.1',
  LANDING_PORT: '0',
  LOG_LEVEL: 'silent',
  DEDUPE_WINDOW_SECONDS: '0',
};
if (process.env.BENCH_DATABASE_URL) env.DATABASE_URL = process.env.BENCH_DATABASE_URL;
else env.DATA_DIR = process.env.BENCH_DATA_DIR ?? '';
const config = loadLandingConfig(env);
const variant = new Set((process.env.BENCH_PLATFORM_VARIANT ?? '').split(',').filter(Boolean));

/** startLanding's steps, with the variant's changes (diagnosis only). */
async function startVariant(): Promise<RunningLanding> {
  const db = await openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, name: 'platform' });
  await migratePlatform(db);
  await ensureDefaultTenant(db, config.DEFAULT_TENANT_SLUG, config.SITE_NAME);
  const deps = composeLanding(config, db);
  const app = await buildLandingApp(deps, {
    logger: false,
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: false,
    site: false,
  });
  const running = await listenAndTrack(app, config.LANDING_HOST, config.LANDING_PORT);
  deps.localCaptcha?.bind(`http://127.0.0.1:${running.port}`);
  return { url: running.url, app, db, close: () => app.close().then(() => db.close()) };
}

for (const v of variant) if (v !== 'nolog') throw new Error(`unknown BENCH_PLATFORM_VARIANT ${v}`);
const running = variant.size ? await startVariant() : await startLanding(config, { site: false });
const counter = countAnswers(running.app.server);
serveCommands({ query: (sql) => running.db.query(sql), counter, close: () => running.close() });
process.send?.({ type: 'ready', url: running.url, engine: running.db.engine } satisfies ChildMessage);
