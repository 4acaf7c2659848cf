/** `/account/accept-invitation` and `/account/reset-password`: shells for the account bundle (token in the fragment). */
import type { FastifyInstance } from 'fastify';

import type { FrontendDeps } from '../../deps.js';
import { acceptInvitationPage, resetPasswordPage } from './account.view.js';
import { html } from './pages.routes.js';

export function registerAccountRoutes(app: FastifyInstance, deps: FrontendDeps): void {
  const script = deps.bundles.script.account;
  app.get('/account/accept-invitation', async (req, reply) =>
    html(reply, acceptInvitationPage(req.branding!, script)).header('cache-control', 'no-store'),
  );
  app.get('/account/reset-password', async (req, reply) =>
    html(reply, resetPasswordPage(req.branding!, script)).header('cache-control', 'no-store'),
  );
}
