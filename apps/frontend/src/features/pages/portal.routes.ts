/**
 * `/portal/quote/:token`: the quote is fetched from the control plane (GET /portal/quotes/{token},
 * with this host's tenant) and rendered on the server; accept and request-changes go through
 * /api/control from the portal bundle. Any refusal shows the same clear page. The invoice's pay page
 * and the customer's appointment page (the link of a job's messages) are served the same way.
 */
import type { PortalAppointmentAnswer } from '@platform/contracts/appointment.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';

import type { FrontendDeps } from '../../deps.js';
import { html } from './pages.routes.js';
import { linkInvalidPage, type PortalQuote, quotePage } from './portal.view.js';
import { appointmentPage } from './portal-appointment.view.js';
import { invoicePayPage, type PortalInvoice } from './portal-invoice.view.js';

const TOKEN = /^[A-Za-z0-9_-]{16,200}$/;

export function registerPortalRoutes(app: FastifyInstance, deps: FrontendDeps): void {
  const base = deps.config.CONTROL_URL.replace(/\/+$/, '');
  // The control plane's portal API for this host's tenant; undefined when it did not answer.
  const fromControl = (req: FastifyRequest, path: string) =>
    fetch(`${base}${path}`, {
      headers: { 'x-tenant-id': req.hostTenant!.id, 'x-tenant-slug': req.hostTenant!.slug, 'x-forwarded-for': req.ip },
      signal: AbortSignal.timeout(15_000),
    }).catch(() => undefined);
  app.get<{ Params: { token: string } }>('/portal/quote/:token', async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const { token } = req.params;
    const branding = req.branding!;
    if (!TOKEN.test(token) || !branding.portalEnabled) return html(reply, linkInvalidPage(branding), 404);
    const r = await fromControl(req, `/portal/quotes/${encodeURIComponent(token)}`);
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
      const r = await fromControl(req, `/portal/invoices/${encodeURIComponent(token)}`);
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
  // The appointment page: GET /portal/appointments/{token}; a cancelled visit still shows, saying so.
  app.get<{ Params: { token: string } }>('/portal/appointment/:token', async (req, reply) => {
    // A person's visit: never kept by a cache, never named to another site.
    const send = (body: string, status = 200) => html(reply, body, status).header('cache-control', 'no-store');
    const { token } = req.params;
    const branding = req.branding!;
    const gone = linkInvalidPage(branding, APPOINTMENT_LINKS);
    if (!TOKEN.test(token) || !branding.portalEnabled) return send(gone, 404);
    const r = await fromControl(req, `/portal/appointments/${encodeURIComponent(token)}`);
    if (r?.ok) return send(appointmentPage(branding, (await r.json()) as PortalAppointmentAnswer, token));
    if (!r || r.status >= 500)
      return send(gone.replace('This link no longer works', 'We could not open your appointment just now'), 503);
    return send(gone, 404);
  });
}

const APPOINTMENT_LINKS =
  'Appointment links stop working two weeks after the visit, and when we send you a newer one for the same visit.';
