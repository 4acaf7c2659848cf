/**
 * `/portal/quote/:token`: the quote is fetched from the control plane (GET /portal/quotes/{token},
 * with this host's tenant) and rendered on the server; accept and request-changes go through
 * /api/control from the portal bundle. Any refusal shows the same clear page.
 */
import type { FastifyInstance } from 'fastify';

import type { FrontendDeps } from '../../deps.js';
import { html } from './pages.routes.js';
import { linkInvalidPage, type PortalQuote, quotePage } from './portal.view.js';
import { invoicePayPage, type PortalInvoice } from './portal-invoice.view.js';

const TOKEN = /^[A-Za-z0-9_-]{16,200}$/;

export function registerPortalRoutes(app: FastifyInstance, deps: FrontendDeps): void {
  const base = deps.config.CONTROL_URL.replace(/\/+$/, '');
  app.get<{ Params: { token: string } }>('/portal/quote/:token', async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const { token } = req.params;
    const branding = req.branding!;
    if (!TOKEN.test(token) || !branding.portalEnabled) return html(reply, linkInvalidPage(branding), 404);
    const r = await fetch(`${base}/portal/quotes/${encodeURIComponent(token)}`, {
      headers: { 'x-tenant-id': req.hostTenant!.id, 'x-tenant-slug': req.hostTenant!.slug, 'x-forwarded-for': req.ip },
      signal: AbortSignal.timeout(15_000),
    }).catch(() => undefined);
    if (r?.ok) {
      const { quote } = (await r.json()) as { quote: PortalQuote };
      return html(reply, quotePage(branding, quote, token, deps.bundles.script.portal)).header(
        'cache-control',
        'no-store',
      );
    }
    if (!r || r.status >= 500)
      return html(
        reply,
        linkInvalidPage(branding).replace('This link no longer works', 'We could not open your quote just now'),
        503,
      );
    return html(reply, linkInvalidPage(branding), 404).header('cache-control', 'no-store');
  });
  // The invoice's pay page (the emailed pay link): the same shape, GET /portal/invoices/{token}.
  app.get<{ Params: { token: string }; Querystring: { payment?: string } }>(
    '/portal/invoice/:token',
    async (req, reply) => {
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      const { token } = req.params;
      const branding = req.branding!;
      if (!TOKEN.test(token)) return html(reply, linkInvalidPage(branding), 404);
      const r = await fetch(`${base}/portal/invoices/${encodeURIComponent(token)}`, {
        headers: {
          'x-tenant-id': req.hostTenant!.id,
          'x-tenant-slug': req.hostTenant!.slug,
          'x-forwarded-for': req.ip,
        },
        signal: AbortSignal.timeout(15_000),
      }).catch(() => undefined);
      if (r?.ok) {
        const { invoice } = (await r.json()) as { invoice: PortalInvoice };
        return html(reply, invoicePayPage(branding, invoice, token, deps.bundles.script.portal, req.query.payment));
      }
      if (!r || r.status >= 500)
        return html(
          reply,
          linkInvalidPage(branding).replace('This link no longer works', 'We could not open your invoice just now'),
          503,
        );
      return html(reply, linkInvalidPage(branding), 404);
    },
  );
}
