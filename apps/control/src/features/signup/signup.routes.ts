/** `/signup` (public: a new company and its owner), the live slug check, and email verification. */
import { localCaptchaRoutes, localCaptchaScript } from '@platform/providers/local';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

import type { ControlDeps } from '../../deps.js';
import { route, type RouteCatalogue } from '../../openapi/routes.js';
import { clientOf } from '../accounts/auth.routes.js';
import { authenticate, principalOf } from '../auth/auth.guard.js';
import { signupBody, slugQuery } from './signup.schemas.js';

export async function registerSignupRoutes(
  app: FastifyInstance,
  catalogue: RouteCatalogue,
  deps: ControlDeps,
): Promise<void> {
  const { signup, verification, localCaptcha } = deps.signup;
  // Embedded mode only: the local siteverify stand-in and its browser script (not a bot check).
  if (localCaptcha) {
    await app.register(localCaptchaRoutes, {
      prefix: '/local-captcha',
      secret: localCaptcha.secret,
      siteKey: localCaptcha.siteKey,
      store: localCaptcha.store,
    });
    // The same script with its token path relative to where it was loaded from, so the sign-up page
    // can load it through the frontend's /api/control and mint its tokens here, not at the frontend's.
    app.get('/local-captcha/signup.js', async (_req, reply) =>
      reply
        .type('text/javascript; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(localCaptchaScript('token')),
    );
  }
  route(app, catalogue, {
    method: 'POST',
    url: '/signup',
    summary: 'Sign up a company on the Free plan and its owner, and sign the owner in',
    tags: ['signup'],
    security: 'none',
    body: signupBody,
    responses: {
      '201':
        'The company is made; the sign-in answer of /auth/login with `email_verified: false` and `office_url` (its office, on its own host)',
    },
    handler: async ({ body }, req, reply) => reply.code(201).send(await signup.signUp(body, clientOf(req))),
  });
  route(app, catalogue, {
    method: 'GET',
    url: '/signup/slug-availability',
    summary: 'Whether a slug can be signed up: available, or why not (syntax, reserved, taken)',
    tags: ['signup'],
    security: 'none',
    query: slugQuery,
    handler: ({ query }, req) => signup.slugAvailability(query.slug, clientOf(req)),
  });
  route(app, catalogue, {
    method: 'POST',
    url: '/auth/verify-email',
    summary: "Verify the account's email address with the emailed link's token",
    tags: ['auth'],
    security: 'none',
    body: z.strictObject({ token: z.string().min(1, 'is required').max(200, 'must be at most 200 characters') }),
    responses: { '204': 'Verified' },
    handler: async ({ body }, req, reply) => {
      await verification.verify(body.token, clientOf(req));
      return reply.code(204).send();
    },
  });
  route(app, catalogue, {
    method: 'POST',
    url: '/auth/verify-email/resend',
    summary: 'Email a new verification link to the signed-in, unverified account',
    tags: ['auth'],
    security: 'bearer',
    preHandler: [authenticate(deps)],
    responses: { '202': '`{sent}`: false when the address is verified already' },
    handler: async (_input, req, reply) => {
      const p = principalOf(req);
      const sent = await verification.resend({ tenantId: p.tenantId, userId: p.userId });
      return reply.code(202).send({ sent });
    },
  });
}
