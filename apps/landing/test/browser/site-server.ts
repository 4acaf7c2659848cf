/**
 * A minimal landing host for browser tests and the bench: the real site (registerSite) plus a fake
 * /api/estimate and /api/helpdesk that record bodies, and a local reCAPTCHA-v3-compatible script.
 * With `tenants`, each snapshot's primary host (under *.tenants.test: launch Chromium with
 * TENANT_HOST_RULES) is that tenant's site, as the landing's host hook would resolve it.
 */
import type { WebsiteSnapshot } from '@platform/contracts/website.js';
import { createStaticSnapshotSource, type StaticSnapshotSource } from '@platform/website';
import Fastify, { type FastifyInstance } from 'fastify';

import { registerSite } from '../../src/site/site.routes.js';

/** Chromium flag: every *.tenants.test name reaches the local test server. */
export const TENANT_HOST_RULES = '--host-resolver-rules=MAP *.tenants.test 127.0.0.1';

/** A stand-in for an uploaded gallery photo at /media/{key} (the real route, features/media, needs the object store). */
const MEDIA_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 600"><rect width="800" height="600" fill="#d9d4ca"/><rect x="120" y="90" width="560" height="380" fill="#f7f5f0" stroke="#6b5e4b" stroke-width="12"/><rect x="132" y="102" width="536" height="170" fill="#b9a98f"/></svg>`;

/** Counts execute() calls in `window.__captchaExecutes`, so tests can see when a token is taken. */
export const FAKE_CAPTCHA_JS = `window.__captchaExecutes=0;window.grecaptcha={ready:function(cb){Promise.resolve().then(cb)},execute:function(key,o){window.__captchaExecutes++;return Promise.resolve('tok-'+key+'-'+o.action)}};`;

/**
 * Makes each snapshot's primary host that tenant's, as the landing's host hook would resolve it
 * (the bench uses it too). Returns the source the site reads the snapshots from.
 */
export function serveTenantHosts(app: FastifyInstance, tenants: WebsiteSnapshot[]): StaticSnapshotSource {
  const websites = createStaticSnapshotSource(new Map(tenants.map((t) => [t.tenant_id, t])));
  const byHost = new Map(tenants.map((t) => [t.primary_host, t]));
  app.addHook('onRequest', (req, _reply, done) => {
    const t = byHost.get(req.hostname);
    if (t)
      req.tenant = {
        tenantId: t.tenant_id,
        slug: t.primary_host.split('.')[0]!,
        name: t.company.name,
        siteName: t.company.name,
        helpdeskTeamId: null,
        erpDb: null,
        isDefault: false,
      };
    done();
  });
  return websites;
}

export interface TestSite {
  url: string;
  app: FastifyInstance;
  estimates: Record<string, unknown>[];
  helpdesk: Record<string, unknown>[];
  captchaLoads: number;
  /** content-type of every POST received, in order. */
  contentTypes: string[];
  /** When set, /api/estimate answers with this problem body and status 422. */
  failWith: { errors: { field: string; rule: string; message: string }[] } | null;
  close(): Promise<void>;
  /** The tenants' snapshots (set() one to publish a change). */
  websites: StaticSnapshotSource;
  /** `http://<host>:<port>` of a tenant's site. */
  tenantUrl(host: string): string;
}

export async function startTestSite(
  opts: { siteName?: string; apiDelayMs?: number; tenants?: WebsiteSnapshot[] } = {},
): Promise<TestSite> {
  const app = Fastify({ logger: false });
  const websites = serveTenantHosts(app, opts.tenants ?? []);
  const site: TestSite = {
    url: '',
    app,
    estimates: [],
    helpdesk: [],
    captchaLoads: 0,
    contentTypes: [],
    failWith: null,
    close: () => app.close(),
    websites,
    tenantUrl: (host) => site.url.replace('127.0.0.1', host),
  };
  await registerSite(app, {
    siteName: opts.siteName ?? 'Brightview Blinds',
    captcha: { scriptUrl: '/local-captcha/api.js', siteKey: 'test-site-key' },
    websites,
  });
  app.get('/media/*', (_req, reply) =>
    reply.type('image/svg+xml').header('cache-control', 'max-age=86400').send(MEDIA_SVG),
  );
  app.get('/local-captcha/api.js', async (_req, reply) => {
    site.captchaLoads++;
    return reply.type('text/javascript').send(FAKE_CAPTCHA_JS);
  });
  app.addHook('onRequest', async (req) => {
    if (req.method === 'POST') site.contentTypes.push(String(req.headers['content-type']));
  });
  app.post('/api/estimate', async (req, reply) => {
    if (opts.apiDelayMs) await new Promise((r) => setTimeout(r, opts.apiDelayMs));
    if (site.failWith) {
      return reply
        .code(422)
        .type('application/problem+json')
        .send({ type: 'about:blank', title: 'Invalid submission', status: 422, ...site.failWith });
    }
    site.estimates.push(req.body as Record<string, unknown>);
    return reply.code(201).send({ id: `lead-${site.estimates.length}` });
  });
  app.post('/api/helpdesk', async (req, reply) => {
    site.helpdesk.push(req.body as Record<string, unknown>);
    return reply.code(201).send({ id: `ticket-${site.helpdesk.length}` });
  });
  app.get('/health', async () => ({ status: 'ok' }));
  site.url = await app.listen({ port: 0, host: '127.0.0.1' });
  return site;
}
