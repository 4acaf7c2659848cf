/**
 * Email verification of self-serve sign-ups: an emailed single-use link (`/verify-email#token=`,
 * 48 hours, only its SHA-256 stored). Until the owner opens it they may set up the company, but not
 * send quotes or invite (`assertVerified`, EMAIL_NOT_VERIFIED). Accounts made by the CLI, the
 * operator or an invitation are verified from the start (migration 0250's column default).
 */
import { type Db, enterTenant, type Queryable, withTenant } from '@platform/db';
import type { EmailOutboxService } from '@platform/email';
import type { RateLimiter } from '@platform/http-kit';
import { AppError, type Clock } from '@platform/kernel';
import { findTenantById } from '@platform/tenancy';

import type { AuditLog } from '../audit/audit-log.js';
import { accountLink, type LinkConfig } from './account-links.js';
import { nameOfUser } from './accounts.repo.js';
import {
  claimVerification,
  emailVerified,
  findVerificationByHash,
  insertVerification,
  markUnverified,
  markVerified,
  retireVerifications,
} from './email-verification.repo.js';
import { hashToken, newSecretToken, TOKEN_SHAPE } from './secret-token.js';
import type { ClientInfo } from './sessions.service.js';

export const VERIFICATION_TTL_HOURS = 48;
/** At most this many resends per account per quarter hour (no mail-bombing through us). */
const RESENDS = { name: 'email-verification-resend', max: 3, windowSeconds: 900 };

export interface VerificationTarget {
  tenantId: string;
  slug: string;
  userId: string;
}

const invalidLink = () =>
  new AppError('VERIFICATION_TOKEN_INVALID', 'This verification link is not valid (unknown, already used or expired).');

export class EmailVerificationService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly email: EmailOutboxService,
    private readonly limiter: RateLimiter,
    private readonly audit: AuditLog,
    private readonly links: LinkConfig,
  ) {}

  /** Marks the account unverified and queues its link, in the caller's transaction (the sign-up's). */
  async begin(q: Queryable, t: VerificationTarget): Promise<void> {
    await markUnverified(q, t.userId);
    await this.sendLink(q, t);
  }

  /** A new link for a signed-in, still unverified account; false when it is verified already. */
  async resend(t: { tenantId: string; userId: string }): Promise<boolean> {
    if (await emailVerified(this.db, t.userId)) return false;
    await this.limiter.consume(RESENDS, t.userId);
    const tenant = await findTenantById(this.db, t.tenantId);
    if (!tenant) throw new AppError('NOT_FOUND', 'No such company.');
    await withTenant(this.db, t.tenantId, (tx) => this.sendLink(tx, { ...t, slug: tenant.slug }));
    return true;
  }

  async verify(token: string, client: ClientInfo): Promise<void> {
    if (!TOKEN_SHAPE.test(token)) throw invalidLink();
    const link = await findVerificationByHash(this.db, hashToken(token));
    if (!link) throw invalidLink();
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      await enterTenant(tx, link.tenant_id);
      if (!(await claimVerification(tx, link.id, now))) throw invalidLink();
      await markVerified(tx, link.user_id, now);
      await this.audit.record(tx, {
        tenantId: link.tenant_id,
        actor: { kind: 'user', id: link.user_id },
        action: 'auth.email_verified',
        target: { type: 'user', id: link.user_id },
        ip: client.ip,
      });
    });
  }

  async isVerified(userId: string): Promise<boolean> {
    return emailVerified(this.db, userId);
  }

  /** Sending quotes and inviting wait for a verified address. */
  async assertVerified(userId: string): Promise<void> {
    if (await emailVerified(this.db, userId)) return;
    throw new AppError(
      'EMAIL_NOT_VERIFIED',
      'Verify your email address first: open the link we emailed you, or ask for a new one.',
    );
  }

  private async sendLink(q: Queryable, t: VerificationTarget): Promise<void> {
    const now = this.clock.now();
    const who = await nameOfUser(q, t.userId);
    if (!who) throw new Error('email verification: the account is not visible in its tenant');
    const link = newSecretToken();
    await retireVerifications(q, t.userId, now);
    const id = await insertVerification(q, {
      tenantId: t.tenantId,
      userId: t.userId,
      hash: link.hash,
      expiresAt: new Date(now.getTime() + VERIFICATION_TTL_HOURS * 3600_000),
    });
    await this.email.enqueueIn(q, {
      tenantId: t.tenantId,
      template: 'email_verification',
      to: { address: who.email, ...(who.name ? { name: who.name } : {}) },
      data: {
        ...(who.name ? { name: who.name } : {}),
        verifyUrl: accountLink(this.links, t.slug, 'email-verification', link.token),
        expiresInHours: VERIFICATION_TTL_HOURS,
      },
      key: `email-verification:${id}`,
    });
  }
}
