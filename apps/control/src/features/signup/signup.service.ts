/**
 * Self-serve sign-up (docs/control-plane.md, "Sign-up"): per-address rate limits and the bot check
 * first, then the slug and the email, then the SAME provisioning as `npm run tenants -- create`
 * (Free plan, own ERP database, subdomain, owner membership) in its fresh mode: a failure at any
 * step undoes what was made. The owner starts unverified with a verification email queued in the
 * tenant's last transaction, and is signed in (the answer of POST /auth/login).
 */
import { type Db, type Queryable, withTenant } from '@platform/db';
import type { Limit, RateLimiter } from '@platform/http-kit';
import { AppError } from '@platform/kernel';
import { type CaptchaVerifier, requireCaptchaPass } from '@platform/providers';
import { findTenantBySlug } from '@platform/tenancy';

import { membershipsOfUser, profileIn } from '../accounts/accounts.repo.js';
import type { EmailVerificationService } from '../accounts/email-verification.service.js';
import type { ClientInfo, SessionService, SignInAnswer } from '../accounts/sessions.service.js';
import { findUserByEmail } from '../accounts/users.repo.js';
import type { AuditLog } from '../audit/audit-log.js';
import { isReservedSlug } from '../tenants/reserved-slugs.js';
import type { TenantProvisioningService } from '../tenants/tenant-provisioning.service.js';
import { SLUG } from '../tenants/tenants.schemas.js';
import type { SignupInput } from './signup.schemas.js';

/** Per client address, as on the public forms: a burst of five, twenty an hour. */
export const SIGNUP_LIMITS: Limit[] = [
  { name: 'signup-minute', max: 5, windowSeconds: 60 },
  { name: 'signup-hour', max: 20, windowSeconds: 3600 },
];
const CHECK_LIMIT: Limit = { name: 'signup-slug-check', max: 60, windowSeconds: 60 };

export type SlugAvailability =
  | { slug: string; available: true }
  | { slug: string; available: false; reason: 'syntax' | 'reserved' | 'taken'; message: string };

export interface SignupDeps {
  db: Db;
  limiter: RateLimiter;
  captcha: CaptchaVerifier;
  provisioning: Pick<TenantProvisioningService, 'createFresh'>;
  verification: Pick<EmailVerificationService, 'begin'>;
  sessions: Pick<SessionService, 'start'>;
  audit: AuditLog;
  officeOrigin: (slug: string) => string;
}

/** The sign-in answer, plus where the company's own office is (its host, not the platform's). */
export type SignupAnswer = SignInAnswer & { email_verified: false; office_url: string };

const fieldError = (code: 'VALIDATION_FAILED', field: string, rule: string, message: string) =>
  new AppError(code, `${field} ${message}`, { fieldIssues: [{ field, rule, message }] });

export class SignupService {
  constructor(private readonly d: SignupDeps) {}

  async slugAvailability(slug: string, client: ClientInfo): Promise<SlugAvailability> {
    await this.d.limiter.consume(CHECK_LIMIT, client.ip);
    return this.availability(slug);
  }

  async signUp(input: SignupInput, client: ClientInfo): Promise<SignupAnswer> {
    for (const limit of SIGNUP_LIMITS) await this.d.limiter.consume(limit, client.ip);
    await requireCaptchaPass(this.d.captcha, {
      token: input.captcha_token,
      expectedAction: 'signup',
      ...(client.ip ? { remoteIp: client.ip } : {}),
    });
    const slug = await this.availability(input.slug);
    if (!slug.available) {
      if (slug.reason === 'taken') throw this.slugTaken(input.slug);
      throw fieldError('VALIDATION_FAILED', 'slug', slug.reason, slug.message);
    }
    const email = input.email.trim().toLowerCase();
    if (await findUserByEmail(this.d.db, email)) throw emailTaken();
    const made = await this.d.provisioning
      .createFresh(
        {
          slug: input.slug,
          name: input.company_name,
          plan: 'free',
          owner_email: email,
          owner_password: input.password,
          owner_name: input.owner_name,
        },
        { kind: 'system' },
        client.ip,
        { activate: (q, m) => this.activate(q, input.slug, m, client) },
      )
      .catch((e: unknown) => {
        // Two sign-ups with one address in flight at once on PostgreSQL: the later insert of the account waits
        // for the earlier and then breaks `users.email`'s uniqueness (everything of it was undone meanwhile).
        throw isUniqueViolation(e, 'users_email_key') ? emailTaken() : e;
      });
    const answer = await withTenant(this.d.db, made.id, async (tx) => {
      const owner = (await findUserByEmail(tx, email))!;
      const profile = (await profileIn(tx, made.id, owner.id))!;
      return this.d.sessions.start(tx, profile, client);
    });
    return { ...answer, email_verified: false, office_url: `${this.d.officeOrigin(input.slug)}/office` };
  }

  /** In the tenant's last transaction: the owner is a new account, unverified, with its link queued. */
  private async activate(q: Queryable, slug: string, m: { tenantId: string; ownerId: string }, client: ClientInfo) {
    // Someone made an account with this address since the check above: it is not this sign-up's.
    if ((await membershipsOfUser(q, m.ownerId)).length !== 1) throw emailTaken();
    await this.d.verification.begin(q, { tenantId: m.tenantId, slug, userId: m.ownerId });
    await this.d.audit.record(q, {
      tenantId: m.tenantId,
      actor: { kind: 'user', id: m.ownerId },
      action: 'tenant.signup',
      target: { type: 'tenant', id: m.tenantId },
      ip: client.ip,
      detail: { slug, plan: 'free' },
    });
  }

  private async availability(slug: string): Promise<SlugAvailability> {
    if (!SLUG.test(slug))
      return {
        slug,
        available: false,
        reason: 'syntax',
        message: 'must be 1-48 lower-case letters, digits and inner hyphens',
      };
    if (isReservedSlug(slug))
      return { slug, available: false, reason: 'reserved', message: 'is reserved by the platform: choose another' };
    if (await findTenantBySlug(this.d.db, slug))
      return { slug, available: false, reason: 'taken', message: 'is taken by another company: choose another' };
    return { slug, available: true };
  }

  private slugTaken(slug: string) {
    return new AppError('TENANT_SLUG_TAKEN', `The address ${slug} is taken by another company: choose another.`, {
      details: { field: 'slug' },
    });
  }
}

/** PostgreSQL's unique violation of `constraint` (node-postgres names it; PGlite's message does). */
function isUniqueViolation(e: unknown, constraint: string): boolean {
  const err = e as { code?: unknown; constraint?: unknown; message?: unknown } | null;
  if (typeof err !== 'object' || err === null || err.code !== '23505') return false;
  return err.constraint === constraint || String(err.message).includes(constraint);
}

const emailTaken = () =>
  new AppError('EMAIL_TAKEN', 'This email address already has an account: sign in instead, or use another address.', {
    details: { field: 'email' },
  });
