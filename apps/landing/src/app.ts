/** The landing host's HTTP app. It never listens by itself (server.ts does); tests use inject(). */
import { acmeChallengeRoutes } from '@platform/certificates';
import {
  genRequestId,
  GRACEFUL_FASTIFY_OPTIONS,
  problemClientErrorHandler,
  problemFrameworkErrors,
  registerInputHandling,
  registerMetrics,
  registerProblemHandlers,
} from '@platform/http-kit';
import { localCaptchaRoutes } from '@platform/providers/local';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';

import type { LandingDeps } from './deps.js';
import { registerCapiRoutes } from './features/conversions/capi.routes.js';
import { registerHealthRoutes } from './features/health/health.routes.js';
import { registerIntakeRoutes } from './features/intake/intake.routes.js';
import { registerMagnetRoutes } from './features/magnet/magnet.routes.js';
import { registerOpenApiRoutes } from './features/openapi/openapi.routes.js';
import { registerTenantHost } from './features/tenancy/tenant-host.hook.js';
import { registerSite } from './site/site.routes.js';

export interface LandingAppOptions {
  logger: FastifyBaseLogger | false;
  bodyLimit: number;
  /** Fastify trustProxy: false, the proxy's addresses/CIDRs, or a per-hop predicate (ASVS 4.1.3). */
  trustProxy: boolean | string[] | ((address: string, hop: number) => boolean);
  /** Serve the public website pages (off in API-only tests). */
  site: boolean;
}

export async function buildLandingApp(deps: LandingDeps, opts: LandingAppOptions): Promise<FastifyInstance> {
  const app = (opts.logger
    ? Fastify({
        ...GRACEFUL_FASTIFY_OPTIONS,
        loggerInstance: opts.logger,
        bodyLimit: opts.bodyLimit,
        trustProxy: opts.trustProxy,
        genReqId: genRequestId,
        frameworkErrors: problemFrameworkErrors,
        clientErrorHandler: problemClientErrorHandler,
      })
    : Fastify({
        ...GRACEFUL_FASTIFY_OPTIONS,
        logger: false,
        bodyLimit: opts.bodyLimit,
        trustProxy: opts.trustProxy,
        genReqId: genRequestId,
        frameworkErrors: problemFrameworkErrors,
        clientErrorHandler: problemClientErrorHandler,
      })) as unknown as FastifyInstance;
  // JSON only (charset-aware), and no NUL or lone surrogate in any string (docs/public-api.md).
  registerInputHandling(app);
  registerProblemHandlers(app);
  registerMetrics(app, deps.metrics);
  // Callback style: an async hook costs a promise and a microtask turn on every reply.
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('x-request-id', req.id);
    done(null, payload);
  });

  // Before every route: which tenant's site this host is (or a not-found page).
  registerTenantHost(app, deps.tenants);
  registerHealthRoutes(app, deps.db);
  registerIntakeRoutes(app, deps);
  registerMagnetRoutes(app, deps);
  registerCapiRoutes(app, deps);
  registerOpenApiRoutes(app);
  // http-01 answers for tenant-domain certificates: the proxy routes port 80's challenge path here.
  await app.register(acmeChallengeRoutes, { db: deps.db });
  if (deps.localCaptcha) {
    // Embedded mode only: the local siteverify stand-in and its browser script.
    await app.register(localCaptchaRoutes, {
      prefix: '/local-captcha',
      secret: deps.localCaptcha.secret,
      siteKey: deps.localCaptcha.siteKey,
      maxTokens: deps.localCaptcha.maxTokens,
    });
  }
  if (opts.site)
    await registerSite(app, {
      siteName: deps.siteName,
      captcha: deps.captchaScript,
      ...(deps.siteUrl ? { publicUrl: deps.siteUrl } : {}),
    });
  return app;
}
