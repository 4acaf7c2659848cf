/** The landing host's HTTP app. It never listens by itself (server.ts does); tests use inject(). */
import { acmeChallengeRoutes } from '@platform/certificates';
import {
  createFastify,
  type CreateFastifyOptions,
  registerInputHandling,
  registerMetrics,
  registerProblemHandlers,
} from '@platform/http-kit';
import { localCaptchaRoutes } from '@platform/providers/local';
import { type FastifyBaseLogger, type FastifyInstance } from 'fastify';

import type { LandingDeps } from './deps.js';
import { registerCapiRoutes } from './features/conversions/capi.routes.js';
import { registerHealthRoutes } from './features/health/health.routes.js';
import { registerIntakeRoutes } from './features/intake/intake.routes.js';
import { registerMagnetRoutes } from './features/magnet/magnet.routes.js';
import { registerMediaRoutes } from './features/media/media.routes.js';
import { registerOpenApiRoutes } from './features/openapi/openapi.routes.js';
import { registerTenantHost } from './features/tenancy/tenant-host.hook.js';
import { registerSite } from './site/site.routes.js';

export interface LandingAppOptions {
  logger: FastifyBaseLogger | false;
  bodyLimit: number;
  /** Fastify trustProxy: false, the proxy's addresses/CIDRs, or a per-hop predicate (ASVS 4.1.3). */
  trustProxy: CreateFastifyOptions['trustProxy'];
  /** Serve the public website pages (off in API-only tests). */
  site: boolean;
}

export async function buildLandingApp(deps: LandingDeps, opts: LandingAppOptions): Promise<FastifyInstance> {
  const app = createFastify({ logger: opts.logger, bodyLimit: opts.bodyLimit, trustProxy: opts.trustProxy });
  // JSON only (charset-aware), and no NUL or lone surrogate in any string (docs/public-api.md).
  registerInputHandling(app);
  registerProblemHandlers(app);
  registerMetrics(app, deps.metrics);

  // Before every route: which tenant's site this host is (or a not-found page).
  registerTenantHost(app, deps.tenants);
  registerHealthRoutes(app, deps.db);
  registerIntakeRoutes(app, deps);
  registerMagnetRoutes(app, deps);
  registerCapiRoutes(app, deps);
  registerOpenApiRoutes(app);
  registerMediaRoutes(app, deps);
  // http-01 answers for tenant-domain certificates: the proxy routes port 80's challenge path here.
  await app.register(acmeChallengeRoutes, { db: deps.db });
  if (deps.localCaptcha) {
    // Embedded mode only: the local siteverify stand-in and its browser script.
    await app.register(localCaptchaRoutes, {
      prefix: '/local-captcha',
      secret: deps.localCaptcha.secret,
      siteKey: deps.localCaptcha.siteKey,
      store: deps.localCaptcha.store,
    });
  }
  if (opts.site)
    await registerSite(app, {
      siteName: deps.siteName,
      captcha: deps.captchaScript,
      ...(deps.siteUrl ? { publicUrl: deps.siteUrl } : {}),
      ...(deps.websites ? { websites: deps.websites } : {}),
      tenantsHost: deps.tenantsHost,
      preview: deps.preview,
    });
  return app;
}
