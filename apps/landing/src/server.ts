/**
 * Starts the landing host: platform database (migrated), default tenant, app, listen. Used by
 * `npm run start:landing` (main.ts) and by the single-process platform (apps/platform).
 */
import type { Db } from '@platform/db';
import { parseTrustProxy, platformHost, type PlatformHostOptions, startHttpService } from '@platform/http-kit';
import type { ObjectStore } from '@platform/storage';
import { createWebsiteSnapshotSource, type WebsiteSnapshotSource } from '@platform/website';
import type { FastifyInstance } from 'fastify';

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

export interface StartLandingOptions extends PlatformHostOptions {
  /** Called after each accepted submission (wakes an in-process worker). */
  onAccepted?: () => void;
  site?: boolean;
  /** Tenants' website snapshots; absent, the database-backed source (published versions, LISTEN). */
  websites?: WebsiteSnapshotSource;
  /** The tenants' object store (gallery images); absent, STORAGE_* as the control plane reads it. */
  objects?: ObjectStore;
}

export async function startLanding(config: LandingConfig, opts: StartLandingOptions = {}): Promise<RunningLanding> {
  const { logger, ...platform } = platformHost('landing', config, opts);
  return startHttpService({
    ...platform,
    host: config.LANDING_HOST,
    port: config.LANDING_PORT,
    build: async (db) => {
      await ensureDefaultTenant(db, config.DEFAULT_TENANT_SLUG, config.SITE_NAME);
      // Each tenant's published site, cached here and dropped when any process publishes (LISTEN platform_website).
      const owned = opts.websites ? undefined : createWebsiteSnapshotSource(db, { tenantsHost: config.TENANTS_HOST });
      const websites = opts.websites ?? owned!;
      const deps = composeLanding(config, db, opts.onAccepted, {
        websites,
        ...(opts.objects ? { objects: opts.objects } : {}),
      });
      // Hear tenant and domain changes made by any process (LISTEN platform_tenancy).
      await deps.tenants.start();
      const stop = async () => {
        await owned?.stop();
        await deps.tenants.stop();
      };
      try {
        await owned?.start();
        const app = await buildLandingApp(deps, {
          logger,
          bodyLimit: config.BODY_LIMIT_BYTES,
          trustProxy: parseTrustProxy(config.TRUST_PROXY),
          site: opts.site ?? true,
        });
        return { app, deps, stop };
      } catch (e) {
        await stop();
        throw e;
      }
    },
    listening: ({ deps }) => {
      if (!deps.localCaptcha) return;
      logger.warn(
        'bot check: no CAPTCHA_SECRET_KEY, so the LOCAL siteverify stand-in is in use (embedded mode only; it is not a bot check)',
      );
    },
  });
}
