/**
 * The sign-up feature's parts, built by deps.ts: the bot check (reCAPTCHA v3 siteverify with
 * CAPTCHA_SECRET_KEY; otherwise the local stand-in served by this app at /local-captcha, which
 * checks that a page asked for a token, not that a person did), email verification and sign-up.
 */
import type { Db } from '@platform/db';
import type { EmailOutboxService } from '@platform/email';
import type { RateLimiter } from '@platform/http-kit';
import { type Clock, randomToken } from '@platform/kernel';
import { type CaptchaVerifier, createSiteverifyVerifier, GOOGLE_SITEVERIFY_URL } from '@platform/providers';
import { createEmbeddedBotCheck, type EmbeddedBotCheck } from '@platform/providers/local';

import type { ControlConfig } from '../../control.config.js';
import type { LinkConfig } from '../accounts/account-links.js';
import { EmailVerificationService } from '../accounts/email-verification.service.js';
import type { SessionService } from '../accounts/sessions.service.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { TenantProvisioningService } from '../tenants/tenant-provisioning.service.js';
import type { TenantPublicOrigins } from '../tenants/tenant-public-origins.js';
import { SignupService } from './signup.service.js';

export interface SignupFeature {
  signup: SignupService;
  verification: EmailVerificationService;
  /** Embedded mode: the local siteverify stand-in this app serves at /local-captcha. */
  localCaptcha: EmbeddedBotCheck | null;
}

export interface SignupParts {
  clock: Clock;
  limiter: RateLimiter;
  email: EmailOutboxService;
  audit: AuditLog;
  linkConfig: LinkConfig;
  provisioning: TenantProvisioningService;
  sessions: SessionService;
  /** The public origins of tenant hosts (where a new company's office is served). */
  publicOrigins: Pick<TenantPublicOrigins, 'origin'>;
}

const list = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);

function botCheck(c: ControlConfig): { verifier: CaptchaVerifier; local: SignupFeature['localCaptcha'] } {
  const common = { minScore: c.CAPTCHA_MIN_SCORE, timeoutMs: 3_000 };
  if (c.CAPTCHA_SECRET_KEY)
    return {
      verifier: createSiteverifyVerifier({
        ...common,
        verifyUrl: c.CAPTCHA_VERIFY_URL ?? GOOGLE_SITEVERIFY_URL,
        secret: c.CAPTCHA_SECRET_KEY,
        allowedHostnames: list(c.CAPTCHA_ALLOWED_HOSTNAMES),
      }),
      local: null,
    };
  const allowed = list(c.CAPTCHA_ALLOWED_HOSTNAMES);
  // The stand-in is served by this very app and answered in process (embedded-bot-check.ts says why).
  const local = createEmbeddedBotCheck({
    ...common,
    secret: randomToken(24),
    allowedHostnames: allowed.length ? allowed : ['localhost', '127.0.0.1', '[::1]', `*.${c.TENANTS_HOST}`],
  });
  return { verifier: local.verifier, local };
}

export function composeSignup(config: ControlConfig, db: Db, p: SignupParts, captcha?: CaptchaVerifier): SignupFeature {
  const check = captcha ? { verifier: captcha, local: null } : botCheck(config);
  const verification = new EmailVerificationService(db, p.clock, p.email, p.limiter, p.audit, p.linkConfig);
  const signup = new SignupService({
    db,
    limiter: p.limiter,
    captcha: check.verifier,
    provisioning: p.provisioning,
    verification,
    sessions: p.sessions,
    audit: p.audit,
    officeOrigin: (slug) => p.publicOrigins.origin(`${slug}.${config.TENANTS_HOST}`),
  });
  return { signup, verification, localCaptcha: check.local };
}
