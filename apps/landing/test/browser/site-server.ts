/**
 * A minimal landing host for browser tests and the bench: the real site (registerSite) plus a fake
 * /api/estimate and /api/helpdesk that record bodies, and a local reCAPTCHA-v3-compatible script.
 */
import Fastify, { type FastifyInstance } from 'fastify';

import { registerSite } from '../../src/site/site.routes.js';

/** Counts execute() calls in `window.__captchaExecutes`, so tests can see when a token is taken. */
export const FAKE_CAPTCHA_JS = `window.__captchaExecutes=0;window.grecaptcha={ready:function(cb){Promise.resolve().then(cb)},execute:function(key,o){window.__captchaExecutes++;return Promise.resolve('tok-'+key+'-'+o.action)}};`;

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
}

export async function startTestSite(opts: { siteName?: string; apiDelayMs?: number } = {}): Promise<TestSite> {
  const app = Fastify({ logger: false });
  const site: TestSite = {
    url: '',
    app,
    estimates: [],
    helpdesk: [],
    captchaLoads: 0,
    contentTypes: [],
    failWith: null,
    close: () => app.close(),
  };
  await registerSite(app, {
    siteName: opts.siteName ?? 'Brightview Blinds',
    captcha: { scriptUrl: '/local-captcha/api.js', siteKey: 'test-site-key' },
  });
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
