/**
 * The platform side of bench:intake, in its own process: the landing host exactly as it runs
 * (startLanding, site pages off), embedded bot check (no CAPTCHA_SECRET_KEY, so the local siteverify
 * stand-in is mounted at /local-captcha), LOG_LEVEL silent, no double-submit folding.
 *
 * Env (set by intake.bench.ts): BENCH_DATABASE_URL (PostgreSQL) or BENCH_DATA_DIR (PGlite).
 * BENCH_PLATFORM_VARIANT (diagnosis only; the bench's figures use none): `nolog` builds the same app
 * with Fastify's logger off instead of a silent pino logger; `http-verify` swaps the bot-check
 * verifier's fetch for node:http with a keep-alive Agent (same siteverify call and checks);
 * `probe-zod` times the body validation (estimateSchema.safeParse, wrapped in place) and prints
 * per-call figures to stderr when the server closes. Comma-separated to combine.
 */
import { Agent } from 'node:http';

import { migratePlatform, openDb } from '@platform/db';
import { createLogger, listenAndTrack } from '@platform/http-kit';
import { type CaptchaVerifier, hostnameAllowed, normalizeHostname } from '@platform/providers';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';

import { buildLandingApp } from '../../apps/landing/src/app.js';
import { loadLandingConfig } from '../../apps/landing/src/config.js';
import { composeLanding } from '../../apps/landing/src/deps.js';
import { estimateSchema } from '../../apps/landing/src/features/intake/intake.schemas.js';
import { SubmissionIntakeService } from '../../apps/landing/src/features/intake/submission-intake.service.js';
import { ensureDefaultTenant } from '../../apps/landing/src/features/tenancy/tenant.repo.js';
import { type RunningLanding, startLanding } from '../../apps/landing/src/server.js';
import {
  BENCH_TOKEN_CAPACITY,
  BENCH_VERIFY_TIMEOUT_MS,
  type ChildMessage,
  countAnswers,
  postForm,
  serveCommands,
} from './child-ipc.js';

const env: Record<string, string> = {
  LANDING_HOST: '127.0.0.1',
  LANDING_PORT: '0',
  LOG_LEVEL: 'silent',
  DEDUPE_WINDOW_SECONDS: '0',
  LOCAL_CAPTCHA_MAX_TOKENS: String(BENCH_TOKEN_CAPACITY),
  CAPTCHA_TIMEOUT_MS: String(BENCH_VERIFY_TIMEOUT_MS),
};
if (process.env.BENCH_DATABASE_URL) env.DATABASE_URL = process.env.BENCH_DATABASE_URL;
else env.DATA_DIR = process.env.BENCH_DATA_DIR ?? '';
const config = loadLandingConfig(env);
const variant = new Set((process.env.BENCH_PLATFORM_VARIANT ?? '').split(',').filter(Boolean));

/** The siteverify call of createSiteverifyVerifier, over node:http with a keep-alive Agent instead of fetch. */
function httpVerifier(verifyUrl: () => string, secret: string): CaptchaVerifier {
  const agent = new Agent({ keepAlive: true });
  const allowed = ['localhost', '127.0.0.1', '[::1]'];
  return {
    verify: async (input) => {
      const form = new URLSearchParams({ secret, response: input.token });
      if (input.remoteIp) form.set('remoteip', input.remoteIp);
      const text = await postForm(agent, verifyUrl(), form.toString(), 'bot-check verifier timed out');
      const v = JSON.parse(text) as {
        success?: boolean;
        score?: number;
        action?: string;
        hostname?: string;
        'error-codes'?: string[];
      };
      const errorCodes = v['error-codes'] ?? [];
      if (v.success !== true) return { ok: false, reason: 'failed', errorCodes };
      if (!v.hostname || !hostnameAllowed(normalizeHostname(v.hostname), allowed))
        return { ok: false, reason: 'wrong_hostname', errorCodes };
      if (v.action !== input.expectedAction) return { ok: false, reason: 'wrong_action', errorCodes };
      if (typeof v.score !== 'number' || v.score < config.CAPTCHA_MIN_SCORE)
        return { ok: false, reason: 'low_score', errorCodes };
      return { ok: true, score: v.score, action: v.action, hostname: v.hostname };
    },
  };
}

/** startLanding's steps, with the variant's changes (diagnosis only). */
async function startVariant(): Promise<RunningLanding> {
  const db = await openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, name: 'platform' });
  await migratePlatform(db);
  await ensureDefaultTenant(db, config.DEFAULT_TENANT_SLUG, config.SITE_NAME);
  const deps = composeLanding(config, db);
  let base = '';
  if (variant.has('http-verify')) {
    const verifier = httpVerifier(() => `${base}/local-captcha/siteverify`, deps.localCaptcha!.secret);
    deps.intake = new SubmissionIntakeService(db, verifier, {
      dedupeWindowSeconds: config.DEDUPE_WINDOW_SECONDS,
    });
  }
  const app = await buildLandingApp(deps, {
    logger: variant.has('nolog') ? false : (createLogger(config.LOG_LEVEL, 'landing') as unknown as FastifyBaseLogger),
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: false,
    site: false,
  });
  const running = await listenAndTrack(app, config.LANDING_HOST, config.LANDING_PORT);
  base = `http://127.0.0.1:${running.port}`;
  return { url: running.url, app, db, close: () => app.close().then(() => db.close()) };
}

for (const v of variant)
  if (!['nolog', 'http-verify', 'probe-zod'].includes(v)) throw new Error(`unknown BENCH_PLATFORM_VARIANT ${v}`);
const probe = {
  calls: 0,
  cpuUs: 0,
  each: [] as number[],
  wall: [] as number[],
  fresh: [] as number[],
  hoisted: [] as number[],
  again: [] as number[],
};
const hoistedEmail = z.email();
if (variant.has('probe-zod')) {
  const safeParse = estimateSchema.safeParse.bind(estimateSchema);
  estimateSchema.safeParse = ((input: unknown) => {
    const c = process.cpuUsage();
    const t = process.hrtime.bigint();
    const r = safeParse(input);
    probe.wall.push(Number(process.hrtime.bigint() - t) / 1000);
    const d = process.cpuUsage(c);
    probe.calls++;
    probe.cpuUs += d.user + d.system;
    probe.each.push(d.user + d.system);
    // The same call again at once (warm caches), then what the email rule does per call (a new
    // z.email() schema) and the same check with one hoisted schema.
    const t0 = process.hrtime.bigint();
    safeParse(input);
    probe.again.push(Number(process.hrtime.bigint() - t0) / 1000);
    const email = (input as { email?: string }).email ?? '';
    const t1 = process.hrtime.bigint();
    z.email().safeParse(email);
    const t2 = process.hrtime.bigint();
    hoistedEmail.safeParse(email);
    probe.fresh.push(Number(t2 - t1) / 1000);
    probe.hoisted.push(Number(process.hrtime.bigint() - t2) / 1000);
    return r;
  }) as typeof estimateSchema.safeParse;
}
const running =
  variant.has('nolog') || variant.has('http-verify')
    ? await startVariant()
    : await startLanding(config, { site: false });
const counter = countAnswers(running.app.server);
serveCommands({
  query: (sql) => running.db.query(sql),
  // The real POST /local-captcha/token route, through Fastify's inject (no socket: minting is fast).
  mint: async () => {
    const res = await running.app.inject({
      method: 'POST',
      url: '/local-captcha/token',
      payload: { action: 'estimate', hostname: 'localhost' },
    });
    if (res.statusCode !== 200) throw new Error(`minting a token: HTTP ${res.statusCode} ${res.body}`);
    return (res.json() as { token: string }).token;
  },
  counter,
  close: async () => {
    if (probe.calls) {
      const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!.toFixed(1);
      const s = [...probe.each].sort((a, b) => a - b);
      const q = (f: number) => s[Math.min(s.length - 1, Math.floor(f * s.length))]!;
      const late = probe.each.slice(200);
      console.error(
        `platform probe-zod: estimateSchema.safeParse ${probe.calls} calls, CPU µs per call: mean ${(probe.cpuUs / probe.calls).toFixed(1)}, ` +
          `p50 ${q(0.5)}, p90 ${q(0.9)}, p99 ${q(0.99)}, max ${s[s.length - 1]}; mean after the first 200 calls ${(late.reduce((a, b) => a + b, 0) / (late.length || 1)).toFixed(1)}; ` +
          `wall µs p50 ${p50(probe.wall)}; inside the same requests: z.email().safeParse p50 ${p50(probe.fresh)} µs, a hoisted z.email() schema p50 ${p50(probe.hoisted)} µs, safeParse again on the same input p50 ${p50(probe.again)} µs`,
      );
    }
    await running.close();
  },
});
process.send?.({ type: 'ready', url: running.url, engine: running.db.engine } satisfies ChildMessage);
