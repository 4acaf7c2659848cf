/**
 * The real platform for the frontend's browser tests: `npm start`'s own `startPlatform` in this
 * process (embedded ERP, control plane, worker, frontend; every port 0, a temp DATA_DIR, PGlite from
 * the prepared template), seeded the way an operator and a tenant's people do it: two tenants made
 * by POST /api/tenants (each its own ERP database), a technician and an office user in A invited and
 * accepted through the accounts API, and A's team chat pointed at a local Google-Chat-style receiver.
 * The browser reaches a tenant on `<slug>.tenants.localhost` (see CHROMIUM_LOCALHOST_ARGS). PGlite by
 * default; with TEST_DATABASE_URL, a fresh PostgreSQL database dropped at the end. With
 * `localProviders`, `npm start`'s own stand-ins run too (SMS, accounting, chat, mail; each tenant
 * given its accounts), which they do on embedded defaults only: always PGlite then.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadWorkerConfig } from '@platform/app-worker/config.js';
import { workerTenantErps } from '@platform/app-worker/erp-connections.js';
import { secretBoxFrom } from '@platform/app-worker/secrets.js';
import { createTestDb, type Db } from '@platform/db';
import type { Erp } from '@platform/erp';
import { chatConfigSchema, chatOrigins, IntegrationSettingsService } from '@platform/integrations';
import { normalizeSmsPhone } from '@platform/providers';
import { type RunningLocalChat, startLocalChat } from '@platform/providers/local';

import { startPlatform } from '../../../platform/src/platform.js';
import { freePortBelowEphemeral, seededDataDir } from './real-platform.seed.js';

const OPERATOR = 'operator-token-of-the-browser-tests-0123';
export const PASSWORD = 'correct horse battery staple';

/** Chromium resolves every *.localhost name to this machine's IPv4 loopback, where the platform listens. */
export const CHROMIUM_LOCALHOST_ARGS = ['--host-resolver-rules=MAP *.localhost 127.0.0.1'];

export interface Person {
  id: string;
  email: string;
  token: string;
}
export interface SeededTenant {
  id: string;
  slug: string;
  erpDb: string;
  owner: Person;
}
export type Call = (
  token: string | undefined,
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<{ status: number; body: any }>;

export interface RealPlatformOptions {
  /** `npm start`'s local provider stand-ins, pointed at every tenant (LOCAL_PROVIDERS=on). */
  localProviders?: boolean;
}

export interface RealPlatform {
  dataDir: string;
  /** The stand-ins' console (what they received: `GET /` → {sms, chat, mail}), with `localProviders`. */
  localConsole: string | undefined;
  db: Db;
  chat: RunningLocalChat;
  a: SeededTenant & { technician: Person; office: Person };
  b: SeededTenant;
  /** The platform's own host (sign-up), e.g. `http://localhost:41234`. */
  platformSite: string;
  /** The frontend on a tenant's own host, e.g. `http://acme-a.tenants.localhost:41234`. */
  siteOf(t: SeededTenant): string;
  /** The landing host on a tenant's own host (its public website), e.g. `http://acme-a.tenants.localhost:41235`. */
  websiteOf(t: Pick<SeededTenant, 'slug'>): string;
  /** The control plane's API (as the frontend forwards it, but direct). */
  api: Call;
  /**
   * A public form posted the way a tenant's site does: to the landing host under the tenant's own
   * host name, with a fresh token from the local bot check.
   */
  postOnSite(
    t: Pick<SeededTenant, 'slug'>,
    path: string,
    action: string,
    body: Record<string, unknown>,
  ): ReturnType<Call>;
  /** The tenant's own ERP database through its service account (the one the control plane uses). */
  erpOf(t: SeededTenant): Promise<Erp>;
  /** Another person in a tenant, invited by its owner and accepted with PASSWORD (as the seed's people are). */
  invite(t: SeededTenant, email: string, role: string, name: string): Promise<Person>;
  close(): Promise<void>;
}

/**
 * A real platform for one test file. Without local providers, on PGlite, and inside a run that gave a
 * seed directory (REAL_PLATFORM_SEED_DIR: the browser suite's global setup), the first file seeds a
 * platform once, closes it and keeps its data directory; every file then starts from a copy of it and
 * only signs its people in again. The copy is the seeded state exactly: what a file changes is its own.
 */
/** Who the seed made, and the ERP's port: each tenant's ERP address (with that port) is in the copy. */
type SeededPeople = Pick<RealPlatform, 'a' | 'b'>;
type Seed = SeededPeople & { erpPort: string };

/**
 * A real platform for one test file. Without local providers, on PGlite, and inside a run that gave a
 * seed directory (REAL_PLATFORM_SEED_DIR: the browser suite's global setup), the first file seeds a
 * platform once, closes it and keeps its data directory; every file then starts from a copy of it (the
 * ERP on the seed's port) and only signs its people in again. What a file changes is its own copy.
 */
export async function startRealPlatform(opts: RealPlatformOptions = {}): Promise<RealPlatform> {
  const seedDir =
    !opts.localProviders && !process.env.TEST_DATABASE_URL ? process.env.REAL_PLATFORM_SEED_DIR : undefined;
  const seeded = seedDir ? await seededDataDir(seedDir, seedOnce) : undefined;
  // A copy lives in the seed directory: removed in the background after the file, and with the
  // directory at the end of the run should the process end first.
  const dataDir = mkdtempSync(join(seedDir && seeded ? seedDir : tmpdir(), 'frontend-real-'));
  if (seeded) cpSync(seeded.dataDir, dataDir, { recursive: true });
  const booted = await boot(dataDir, opts, { erpPort: seeded?.people.erpPort, removeLater: Boolean(seeded) });
  try {
    const people = seeded ? await booted.signInAgain(seeded.people) : await booted.seed();
    await booted.pointChatOf(people.a.id);
    return booted.realPlatform(people);
  } catch (e) {
    await booted.stop();
    throw e;
  }
}

/** Seeds a platform in `dataDir`, closes it cleanly and answers who is in it. */
async function seedOnce(dataDir: string): Promise<Seed> {
  const erpPort = String(await freePortBelowEphemeral());
  const booted = await boot(dataDir, {}, { keepDataDir: true, erpPort });
  try {
    return { ...(await booted.seed()), erpPort };
  } finally {
    await booted.stop();
  }
}

async function boot(
  dataDir: string,
  opts: RealPlatformOptions,
  o: { keepDataDir?: boolean; removeLater?: boolean; erpPort?: string | undefined } = {},
) {
  // With TEST_DATABASE_URL the platform and the ERP's schemas live in a fresh PostgreSQL database.
  const scratch = process.env.TEST_DATABASE_URL && !opts.localProviders ? await createTestDb() : undefined;
  const chat = await startLocalChat({ host: '127.0.0.1', port: 0 });
  const env: Record<string, string> = {
    ...(scratch?.url ? { DATABASE_URL: scratch.url } : {}),
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.REAL_PLATFORM_LOG_LEVEL ?? 'warn',
    ...Object.fromEntries(['ERP', 'LANDING', 'CONTROL', 'FRONTEND'].flatMap((s) => [[`${s}_PORT`, '0']])),
    ...(o.erpPort ? { ERP_PORT: o.erpPort } : {}),
    ...Object.fromEntries(['ERP', 'LANDING', 'CONTROL', 'FRONTEND'].flatMap((s) => [[`${s}_HOST`, '127.0.0.1']])),
    ...(opts.localProviders ? { LOCAL_PROVIDERS: 'on', LOCAL_PROVIDERS_PORT: '0' } : { LOCAL_PROVIDERS: 'off' }),
    DOCS: 'off',
    BACKUP_INTERVAL_H: '0',
    CONTROL_OPERATOR_TOKEN: OPERATOR,
    CHAT_ALLOWED_ORIGINS: `https://chat.googleapis.com,${new URL(chat.url).origin}`,
    CHANGE_FEED_POLL_MS: '1000',
    OUTBOX_POLL_MS: '500',
    // Creating a tenant's ERP database on a busy 2-core machine can take longer than the 15 s default.
    ERP_TIMEOUT_MS: '60000',
  };
  const stop = async (platform?: { close(): Promise<void> }) => {
    await platform?.close();
    await chat.close();
    await scratch?.drop();
    if (o.removeLater) void rm(dataDir, { recursive: true, force: true }).catch(() => undefined);
    else if (!o.keepDataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  const platform = await startPlatform(env).catch(async (e: unknown) => {
    await stop();
    throw e;
  });
  const db = platform.db;
  const workerConfig = loadWorkerConfig({ ...env, ERP_URL: platform.erpUrl });
  const erps = workerTenantErps(workerConfig, db);
  const api: Call = async (token, method, path, body, headers = {}) => {
    const r = await fetch(`${platform.controlUrl}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : undefined };
  };
  const expectOk = async (what: string, p: ReturnType<Call>) => {
    const r = await p;
    if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const login = async (email: string, tenant?: string): Promise<Person> => {
    const b = await expectOk(
      `login ${email}`,
      api(undefined, 'POST', '/auth/login', { email, password: PASSWORD, tenant }),
    );
    return { id: b.user.id, email, token: b.access_token };
  };
  const provision = async (slug: string, name: string): Promise<SeededTenant> => {
    const owner = `owner@${slug}.test`;
    const t = await expectOk(
      `create ${slug}`,
      api(OPERATOR, 'POST', '/api/tenants', {
        slug,
        name,
        plan: 'professional',
        owner_email: owner,
        owner_password: PASSWORD,
      }),
    );
    return { id: t.id, slug, erpDb: t.erp_db, owner: await login(owner) };
  };
  // The invitation email's link carries the token in its fragment; the test reads the queued email.
  const invite = async (t: SeededTenant, email: string, role: string, name: string): Promise<Person> => {
    await expectOk(`invite ${email}`, api(t.owner.token, 'POST', `/api/tenants/${t.id}/invitations`, { email, role }));
    const mail = await db.query<{ payload: { text: string } }>(
      `SELECT o.payload FROM email_messages m JOIN outbox o ON o.aggregate_id = m.id::text
        WHERE m.to_address = $1 ORDER BY o.id DESC LIMIT 1`,
      [email],
    );
    const token = /#token=([A-Za-z0-9_-]{43})/.exec(mail.rows[0]?.payload.text ?? '')?.[1];
    if (!token) throw new Error(`no invitation email for ${email}`);
    const b = await expectOk(
      `accept ${email}`,
      api(undefined, 'POST', '/auth/invitations/accept', { token, name, password: PASSWORD }),
    );
    return { id: b.user.id, email, token: b.access_token };
  };
  const seed = async (): Promise<SeededPeople> => {
    const a = await provision('acme-a', 'Acme Blinds');
    const b = await provision('bayside-b', 'Bayside Shades');
    // What a customer is told to call on the clear page of a dead link.
    await expectOk(
      'settings of A',
      api(a.owner.token, 'PUT', `/api/tenants/${a.id}/settings`, {
        phone: '303-555-0100',
        email: 'office@acme-a.test',
      }),
    );
    const technician = await invite(a, 'tech@acme-a.test', 'technician', 'Terry Tech');
    const office = await invite(a, 'office@acme-a.test', 'office', 'Olga Office');
    return { a: { ...a, technician, office }, b };
  };
  const again = async (p: Person) => ({ ...p, token: (await login(p.email)).token });
  const signInAgain = async ({ a, b }: SeededPeople): Promise<SeededPeople> => ({
    a: { ...a, owner: await again(a.owner), technician: await again(a.technician), office: await again(a.office) },
    b: { ...b, owner: await again(b.owner) },
  });
  const pointChatOf = async (tenantId: string) => {
    const settings = new IntegrationSettingsService(
      db,
      secretBoxFrom(workerConfig),
      (raw) => normalizeSmsPhone(raw, workerConfig.SMS_DEFAULT_REGION),
      chatOrigins(workerConfig.CHAT_ALLOWED_ORIGINS),
    );
    await settings.setChatConfig(
      tenantId,
      chatConfigSchema.parse({ webhook_url: chat.webhookUrl('AAAAcme'), enable_fsm: true, enable_sales: true }),
    );
  };
  const frontendPort = new URL(platform.frontendUrl).port;
  const realPlatform = ({ a, b }: SeededPeople): RealPlatform => ({
    dataDir,
    localConsole: platform.localConsole?.url,
    db,
    chat,
    a,
    b,
    platformSite: `http://localhost:${frontendPort}`,
    siteOf: (t) => `http://${t.slug}.tenants.localhost:${frontendPort}`,
    websiteOf: (t) => `http://${t.slug}.tenants.localhost:${new URL(platform.landingUrl).port}`,
    api,
    postOnSite: (t, path, action, body) =>
      postOnSite(platform.landingUrl, `${t.slug}.tenants.localhost`, path, action, body),
    erpOf: (t) => erps.forTenant(t.id),
    invite,
    close: () => stop(platform),
  });
  return { seed, signInAgain, pointChatOf, realPlatform, stop: () => stop(platform) };
}

/** POSTs JSON to `url` with another Host header (fetch cannot set one): how the landing host tells tenants apart. */
function postAs(url: string, host: string, body: unknown): ReturnType<Call> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = request(url, { method: 'POST', headers: { host, 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

async function postOnSite(
  landingUrl: string,
  host: string,
  path: string,
  action: string,
  body: Record<string, unknown>,
): ReturnType<Call> {
  // The local bot check vouches for the loopback name its verifier accepts (as the browser's page would).
  const t = await postAs(`${landingUrl}/local-captcha/token`, host, { action, hostname: 'localhost' });
  if (t.status !== 200) throw new Error(`local captcha token: ${t.status} ${JSON.stringify(t.body)}`);
  return postAs(`${landingUrl}${path}`, host, { ...body, captcha_token: t.body.token });
}

/** Polls until `fn` answers something other than undefined. */
export async function waitUntil<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
