/**
 * HTML pages and their files: the field app's shell, its manifest, icons and service worker, the
 * bundles, and the not-found page for unknown hosts and paths. The request's tenant (by host) and
 * branding come from the onRequest hook in frontend.http-app.ts.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { type Asset, type Bundles, iconAssets, pickEncoding } from '../../assets/assets.js';
import { fieldShell, manifest, officeShell } from './field-shell.view.js';
import { notFoundPage } from './not-found.view.js';

export function sendAsset(req: FastifyRequest, reply: FastifyReply, a: Asset): FastifyReply {
  reply.header('etag', a.etag).header('vary', 'accept-encoding');
  reply.header('cache-control', a.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  if (req.headers['if-none-match'] === a.etag) return reply.code(304).send();
  const enc = pickEncoding(req.headers['accept-encoding']);
  reply.type(a.type);
  if (enc) return reply.header('content-encoding', enc).send(enc === 'br' ? a.br : a.gzip);
  return reply.send(a.body);
}

export function html(reply: FastifyReply, body: string, status = 200): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .send(body);
}

export function registerPageRoutes(app: FastifyInstance, bundles: Bundles): void {
  const icons = new Map<string, Map<string, Asset>>();

  app.get('/assets/:file', async (req, reply) => {
    const a = bundles.files.get(req.url.split('?')[0]!);
    return a ? sendAsset(req, reply, a) : html(reply, notFoundPage(req.branding), 404);
  });
  app.get('/sw.js', async (req, reply) => sendAsset(req, reply, bundles.files.get('/sw.js')!));
  app.get('/icons/:file', async (req, reply) => {
    const primary = req.branding!.primary;
    let set = icons.get(primary);
    if (!set) icons.set(primary, (set = iconAssets(primary)));
    const a = set.get(req.url.split('?')[0]!);
    return a ? sendAsset(req, reply, a) : html(reply, notFoundPage(req.branding), 404);
  });
  app.get('/manifest.webmanifest', async (req, reply) =>
    reply.type('application/manifest+json').header('cache-control', 'no-cache').send(manifest(req.branding!)),
  );

  const shell = async (req: FastifyRequest, reply: FastifyReply) =>
    html(reply, fieldShell(req.branding!, req.hostTenant!, bundles.script.field));
  app.get('/', async (_req, reply) => reply.redirect('/field/jobs'));
  app.get('/field', async (_req, reply) => reply.redirect('/field/jobs'));
  app.get('/field/', async (_req, reply) => reply.redirect('/field/jobs'));
  app.get('/field/shell', shell);
  app.get('/field/login', shell);
  app.get('/field/jobs', shell);
  app.get('/field/jobs/:id', shell);
  app.get('/field/calendar', shell);
  const office = async (req: FastifyRequest, reply: FastifyReply) =>
    html(reply, officeShell(req.branding!, req.hostTenant!, bundles.script.office, req.url.split('?')[0]));
  app.get('/office', async (_req, reply) => reply.redirect('/office/leads'));
  app.get('/office/leads', office);
  app.get('/office/dispatch', office);
  app.get('/office/customers', office);
  app.get('/office/customers/:id', office);
  app.get('/office/search', office);
  app.get('/office/quotes', office);
  app.get('/office/quotes/new', office);
  app.get('/office/quotes/:id', office);
  app.get('/office/jobs/:id', office);
  app.get('/office/invoices', office);
  app.get('/office/invoices/:id', office);
  app.get('/office/purchase-orders', office);
  app.get('/office/stock', office);
  app.get('/office/reports', office);
  app.get('/office/settings', async (_req, reply) => reply.redirect('/office/settings/company'));
  for (const screen of [
    'company',
    'developers',
    'domains',
    'branches',
    'integrations',
    'website',
    'payments',
    'messages',
    'team',
    'plan',
    'price-grids',
    'suppliers',
    'audit',
  ])
    app.get(`/office/settings/${screen}`, office);
}
