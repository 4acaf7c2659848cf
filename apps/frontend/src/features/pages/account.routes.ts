/**
 * `/account/accept-invitation`, `/account/reset-password` and `/verify-email`: shells for the account
 * bundle (token in the fragment); `/signup`: a new company and its owner (docs/control-plane.md "Sign-up").
 */
import type { FastifyInstance } from 'fastify';

import type { FrontendDeps } from '../../deps.js';
import { acceptInvitationPage, resetPasswordPage } from './account.view.js';
import { html } from './pages.routes.js';
import { signupPage, verifyEmailPage } from './signup.view.js';

export function registerAccountRoutes(app: FastifyInstance, deps: FrontendDeps): void {
  const script = deps.bundles.script.account;
  app.get('/account/accept-invitation', async (req, reply) =>
    html(reply, acceptInvitationPage(req.branding!, script)).header('cache-control', 'no-store'),
  );
  app.get('/account/reset-password', async (req, reply) =>
    html(reply, resetPasswordPage(req.branding!, script)).header('cache-control', 'no-store'),
  );
  app.get('/verify-email', async (req, reply) =>
    html(reply, verifyEmailPage(req.branding!, script)).header('cache-control', 'no-store'),
  );
  // The bot check: the control plane verifies the token, so in embedded mode its own stand-in mints it.
  const captcha = deps.localCaptcha
    ? { scriptUrl: '/api/control/local-captcha/signup.js', siteKey: 'local-site-key' }
    : deps.captchaScript;
  app.get('/signup', async (req, reply) =>
    html(reply, signupPage(req.branding!, script, captcha, deps.config.TENANTS_HOST)),
  );
}
