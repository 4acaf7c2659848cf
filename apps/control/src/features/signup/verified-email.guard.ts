/**
 * Sending quotes and inviting wait for a verified email address (docs/control-plane.md, "Sign-up"):
 * a preHandler after `authenticate`, answering 403 EMAIL_NOT_VERIFIED to an unverified account.
 */
import type { preHandlerAsyncHookHandler } from 'fastify';

import type { EmailVerificationService } from '../accounts/email-verification.service.js';
import { principalOf } from '../auth/auth.guard.js';

export function requireVerifiedEmail(deps: {
  signup: { verification: Pick<EmailVerificationService, 'assertVerified'> };
}): preHandlerAsyncHookHandler {
  return async (req) => {
    await deps.signup.verification.assertVerified(principalOf(req).userId);
  };
}
