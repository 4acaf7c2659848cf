/**
 * The frontend's HTTP app. It never listens by itself (frontend.server.ts does); tests use inject().
 * Every request but /api/health is resolved to a tenant by its host first: pages get the tenant's
 * branding, an unknown host gets the not-found page (or a problem body under /api/).
 */
import { createFastify, type CreateFastifyOptions, registerProblemHandlers } from '@platform/http-kit';
import { localCaptchaRoutes } from '@platform/providers/local';
import { type FastifyBaseLogger, type FastifyInstance } from 'fastify';

import type { FrontendDeps } from './deps.js';
import { registerContactApi } from './features/contact/contact.routes.js';
import { registerControlProxy } from './features/control-proxy/control-proxy.routes.js';
import { registerHealthRoutes } from './features/health/health.routes.js';
import { registerAccountRoutes } from './features/pages/account.routes.js';
import { registerContactRoutes } from './features/pages/contact.routes.js';
import { notFoundPage } from './features/pages/not-found.view.js';
import { html, registerPageRoutes } from './features/pages/pages.routes.js';
import { registerPortalRoutes } from './features/pages/portal.routes.js';
import type { Branding } from './features/tenancy/branding.service.js';
import type { HostTenant } from './features/tenancy/host-tenant.resolver.js';

declare module 'fastify' {
  interface FastifyRequest {
    hostTenant?: HostTenant;
    branding?: Branding;
  }
}

export interface FrontendAppOptions {
  logger: FastifyBaseLogger | false;
  trustProxy: CreateFastifyOptions['trustProxy'];
  /** Where the control plane answers (tests point it at a local server). */
  controlUrl?: string;
}

export async function buildFrontendApp(deps: FrontendDeps, opts: FrontendAppOptions): Promise<FastifyInstance> {
  const app = createFastify({ logger: opts.logger, bodyLimit: 65_536, trustProxy: opts.trustProxy });
  registerProblemHandlers(app);
  registerHealthRoutes(app);
  // Pages resolve their tenant here; /api/control resolves its own (and answers a problem body).
  // The shared resolver hears tenant and domain changes from every process while the app is up.
  if (deps.tenants.start) app.addHook('onReady', () => deps.tenants.start!());
  if (deps.tenants.stop) app.addHook('onClose', () => deps.tenants.stop!());
  app.addHook('onReady', () => deps.branding.start());
  app.addHook('onClose', () => deps.branding.stop());
  app.addHook('onRequest', async (req, reply) => {
    const path = req.url.split('?')[0]!;
    if (path.startsWith('/api/') || path.startsWith('/local-captcha/')) return;
    const tenant = await deps.tenants.resolve(req.hostname);
    if (!tenant) return html(reply, notFoundPage(), 404);
    req.hostTenant = tenant;
    req.branding = await deps.branding.forTenant(tenant);
    reply.header('x-tenant-id', tenant.id).header('x-tenant-slug', tenant.slug);
  });
  registerControlProxy(app, {
    controlUrl: opts.controlUrl ?? deps.config.CONTROL_URL,
    tenants: deps.tenants,
    bodyLimit: deps.config.FRONTEND_BODY_LIMIT_BYTES,
  });
  registerPageRoutes(app, deps.bundles);
  registerPortalRoutes(app, deps);
  registerContactRoutes(app, deps);
  registerAccountRoutes(app, deps);
  registerContactApi(app, deps);
  if (deps.localCaptcha) {
    // Embedded mode only: the local siteverify stand-in and its browser script (not a bot check).
    await app.register(localCaptchaRoutes, {
      prefix: '/local-captcha',
      secret: deps.localCaptcha.secret,
      siteKey: deps.localCaptcha.siteKey,
      store: deps.localCaptcha.store,
    });
  }
  // Other methods and /api paths keep http-kit's problem 404; a person following a bad link gets a page.
  app.get('/*', async (req, reply) => {
    if (req.url.startsWith('/api/'))
      return reply
        .code(404)
        .type('application/problem+json')
        .send({
          type: 'urn:platform:problem:not-found',
          title: 'Not found',
          status: 404,
          code: 'NOT_FOUND',
          detail: `No route GET ${req.url.split('?')[0]}.`,
        });
    return html(reply, notFoundPage(req.branding), 404);
  });
  return app;
}
