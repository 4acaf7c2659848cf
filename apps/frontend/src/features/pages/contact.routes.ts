/** `/contact`: the tenant's contact form, posted by the contact bundle to the helpdesk intake. */
import type { FastifyInstance } from 'fastify';

import type { FrontendDeps } from '../../deps.js';
import { contactPage } from './contact.view.js';
import { html } from './pages.routes.js';

export function registerContactRoutes(app: FastifyInstance, deps: FrontendDeps): void {
  app.get('/contact', async (req, reply) =>
    html(reply, contactPage(req.branding!, req.hostTenant!, deps.bundles.script.contact, deps.captchaScript)),
  );
}
