/**
 * Starts the landing host: platform database (migrated), default tenant, app, listen. Used by
 * `npm run start:landing` (main.ts) and by the single-process platform (apps/platform).
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';

import { type Db, migratePlatform, openDb } from '@platform/db';
import { createLogger, listenAndTrack } from '@platform/http-kit';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

import { buildLandingApp } from './app.js';
import type { LandingConfig } from './config.js';
import { composeLanding } from './deps.js';
import { ensureDefaultTenant } from './features/tenancy/tenant.repo.js';

export interface RunningLanding {
  url: string;
  app: FastifyInstance;
  db: Db;
  close(): Promise<void>;
}

export interface StartLandingOptions {
  /** A platform database already opened and migrated (shared with the worker in one process). */
  db?: Db;
  logger?: FastifyBaseLogger;
  /** Called after each accepted submission (wakes an in-process worker). */
  onAccepted?: () => void;
  site?: boolean;
}

export async function startLanding(config: LandingConfig, opts: StartLandingOptions = {}): Promise<RunningLanding> {
  const logger = opts.logger ?? (createLogger(config.LOG_LEVEL, 'landing') as unknown as FastifyBaseLogger);
  const ownDb = !opts.db;
  const db =
    opts.db ??
    (await openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, name: 'platform', owner: true }));
  let stopTenants = async (): Promise<void> => {};
  try {
    if (ownDb) await migratePlatform(db);
    await ensureDefaultTenant(db, config.DEFAULT_TENANT_SLUG, config.SITE_NAME);
    const deps = composeLanding(config, db, opts.onAccepted);
    stopTenants = () => deps.tenants.stop();
    // Hear tenant and domain changes made by any process (LISTEN platform_tenancy).
    await deps.tenants.start();
    const app = await buildLandingApp(deps, {
      logger,
      bodyLimit: config.BODY_LIMIT_BYTES,
      trustProxy: parseTrustProxy(config.TRUST_PROXY),
      site: opts.site ?? true,
    });
    const running = await listenAndTrack(app, config.LANDING_HOST, config.LANDING_PORT);
    if (deps.localCaptcha) {
      deps.localCaptcha.bind(`http://127.0.0.1:${running.port}`);
      logger.warn(
        'bot check: no CAPTCHA_SECRET_KEY, so the LOCAL siteverify stand-in is in use (embedded mode only; it is not a bot check)',
      );
    }
    let closing: Promise<void> | undefined;
    return {
      url: running.url,
      app,
      db,
      // Fastify's close lets in-flight requests finish before the database closes.
      close: () =>
        (closing ??= app
          .close()
          .then(stopTenants)
          .then(() => (ownDb ? db.close() : undefined))),
    };
  } catch (e) {
    await stopTenants();
    if (ownDb) await db.close();
    throw e;
  }
}

/**
 * `true` trusts one hop, and only from a loopback or private-network peer: the reverse proxy in
 * front, whose own X-Forwarded-For entry (the last) is the client; entries before it are whatever
 * the client sent and are ignored, and a client reaching the port directly from a public address
 * cannot pose as a proxy. A list trusts exactly those proxy addresses/CIDRs (several hops when
 * proxies are chained) and takes the last entry not added by one of them.
 */
function parseTrustProxy(v: string | undefined): false | string[] | ((address: string, hop: number) => boolean) {
  if (v === undefined || v === 'false') return false;
  if (v === 'true') return (address, hop) => hop === 0 && isPrivatePeer(address);
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

const PRIVATE_PEERS = new BlockList();
for (const [net, bits] of [
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['169.254.0.0', 16],
] as const)
  PRIVATE_PEERS.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  PRIVATE_PEERS.addSubnet(net, bits, 'ipv6');

function isPrivatePeer(address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return isIPv4(v4) ? PRIVATE_PEERS.check(v4, 'ipv4') : isIPv6(address) && PRIVATE_PEERS.check(address, 'ipv6');
}
