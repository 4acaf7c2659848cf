/**
 * Password reset by an emailed single-use link. Asking always gets the same 202, whether or not the
 * address has an account (the work differs only in a row and a queued email, written in the same
 * kind of transaction). Using the link sets the password, ends every session of the account in
 * every company (the password is the account's, not one company's) and lifts a sign-in lock.
 */
import { type Db, enterTenant, withTenant } from '@platform/db';
import type { EmailOutboxService } from '@platform/email';
import type { RateLimiter } from '@platform/http-kit';
import { AppError, type Clock, isAppError } from '@platform/kernel';

import type { AuditLog } from '../audit/audit-log.js';
import { accountLink, type LinkConfig } from './account-links.js';
import { emailOfUser, membershipsOfUser, setPasswordHash } from './accounts.repo.js';
import type { LoginThrottle } from './login-throttle.js';
import { hashPassword } from './password-hasher.js';
import { claimReset, findResetByHash, insertReset, retireResets } from './password-reset.repo.js';
import { hashToken, newSecretToken, TOKEN_SHAPE } from './secret-token.js';
import { revokeUserSessionsEverywhere } from './sessions.repo.js';
import type { ClientInfo } from './sessions.service.js';
import { findUserByEmail } from './users.repo.js';

export interface ResetConfig extends LinkConfig {
  PASSWORD_RESET_TTL_S: number;
}

const NO_USER = '00000000-0000-0000-0000-000000000000';
/** At most this many reset emails per address per quarter hour (no mail-bombing through us). */
const PER_ADDRESS = { name: 'password-reset', max: 3, windowSeconds: 900 };

const invalidLink = () =>
  new AppError('RESET_TOKEN_INVALID', 'This password reset link is not valid (unknown, already used or expired).');

export class PasswordResetService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly email: EmailOutboxService,
    private readonly limiter: RateLimiter,
    private readonly audit: AuditLog,
    private readonly throttle: LoginThrottle,
    private readonly c: ResetConfig,
  ) {}

  async request(input: { email: string; tenant?: string | undefined }, client: ClientInfo): Promise<void> {
    const email = input.email.trim().toLowerCase();
    try {
      await this.limiter.consume(PER_ADDRESS, hashToken(email).toString('base64url'));
    } catch (e) {
      if (isAppError(e) && e.code === 'RATE_LIMITED') return;
      throw e;
    }
    const user = await findUserByEmail(this.db, email);
    const memberships = (await membershipsOfUser(this.db, user?.id ?? NO_USER)).filter(
      (m) => m.status === 'active' && (!input.tenant || m.tenant_id === input.tenant || m.slug === input.tenant),
    );
    const m = memberships[0];
    if (!user || user.disabled_at || !m) return;
    const now = this.clock.now();
    const t = newSecretToken();
    await withTenant(this.db, m.tenant_id, async (tx) => {
      await retireResets(tx, user.id, now);
      const id = await insertReset(tx, {
        tenantId: m.tenant_id,
        userId: user.id,
        hash: t.hash,
        expiresAt: new Date(now.getTime() + this.c.PASSWORD_RESET_TTL_S * 1000),
        ip: client.ip || null,
      });
      await this.email.enqueueIn(tx, {
        tenantId: m.tenant_id,
        template: 'password_reset',
        to: { address: user.email, ...(user.name ? { name: user.name } : {}) },
        data: {
          ...(user.name ? { name: user.name } : {}),
          resetUrl: accountLink(this.c, m.slug, 'password-reset', t.token),
          expiresInMinutes: Math.round(this.c.PASSWORD_RESET_TTL_S / 60),
        },
        key: `password-reset:${id}`,
      });
      await this.audit.record(tx, {
        tenantId: m.tenant_id,
        actor: { kind: 'user', id: user.id },
        action: 'auth.password_reset_requested',
        target: { type: 'user', id: user.id },
        ip: client.ip,
      });
    });
  }

  async confirm(input: { token: string; password: string }, client: ClientInfo): Promise<void> {
    if (!TOKEN_SHAPE.test(input.token)) throw invalidLink();
    const reset = await findResetByHash(this.db, hashToken(input.token));
    if (!reset) throw invalidLink();
    const hash = await hashPassword(input.password);
    const now = this.clock.now();
    const email = await this.db.transaction(async (tx) => {
      // The account and its sessions span companies: changed by the owning role, then the rest of
      // the transaction is narrowed to the link's company. A used or expired link rolls it all back.
      await setPasswordHash(tx, reset.user_id, hash);
      const ended = await revokeUserSessionsEverywhere(tx, reset.user_id, 'password_reset', now);
      const email = await emailOfUser(tx, reset.user_id);
      await enterTenant(tx, reset.tenant_id);
      if (!(await claimReset(tx, reset.id, now))) throw invalidLink();
      await this.audit.record(tx, {
        tenantId: reset.tenant_id,
        actor: { kind: 'user', id: reset.user_id },
        action: 'auth.password_reset',
        target: { type: 'user', id: reset.user_id },
        ip: client.ip,
        detail: { sessions_ended: ended },
      });
      return email;
    });
    if (email) await this.throttle.clearAccount(email);
  }
}
