/**
 * Invitations into a tenant with a role. Sending answers the same whether or not the address has an
 * account anywhere (nothing outside the tenant is looked at). The plan's limits are checked twice:
 * when sending (no point inviting past the limit) and when accepting (members may have been added,
 * or the plan lowered, meanwhile); only the second one is binding. A person who already has an
 * account accepts with their current password (their name and password stay as they are).
 */
import { type Db, enterTenant, type Queryable, withTenant } from '@platform/db';
import type { EmailOutboxService } from '@platform/email';
import { AppError, type Clock } from '@platform/kernel';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal, Role } from '../auth/principal.js';
import type { PlanLimits } from '../plans/plan-limits.service.js';
import { accountLink, type LinkConfig } from './account-links.js';
import { profileIn, type ProfileRow, setNameIfBlank, setPasswordHash } from './accounts.repo.js';
import {
  claimInvitation,
  findInvitationByHash,
  insertInvitation,
  isMemberByEmail,
  revokePending,
} from './invitations.repo.js';
import type { LoginThrottle } from './login-throttle.js';
import { hashPassword, MIN_PASSWORD_LENGTH, verifyPassword } from './password-hasher.js';
import { hashToken, newSecretToken, TOKEN_SHAPE } from './secret-token.js';
import type { ClientInfo, SessionService, SignInAnswer } from './sessions.service.js';
import { findUserByEmail, insertMembership, insertUser, membershipOf } from './users.repo.js';

export interface InvitationConfig extends LinkConfig {
  INVITATION_TTL_S: number;
}

/** The invitation email (template `invitation`) through the email outbox, in the caller's transaction. */
export function queueInvitationEmail(
  outbox: EmailOutboxService,
  tx: Queryable,
  c: LinkConfig,
  m: { to: string; inviter: ProfileRow; token: string; role: string; key: string },
): Promise<unknown> {
  return outbox.enqueueIn(tx, {
    tenantId: m.inviter.tenant_id,
    template: 'invitation',
    to: { address: m.to },
    data: {
      inviterName: m.inviter.user_name || m.inviter.email,
      acceptUrl: accountLink(c, m.inviter.slug, 'invitation', m.token),
      role: m.role,
    },
    key: m.key,
  });
}

const invalid = () =>
  new AppError('INVITATION_INVALID', 'This invitation is not valid (unknown, already accepted, replaced or expired).');

function assertNewAccount(name: string | undefined, password: string): void {
  const issues = [];
  if (!name?.trim()) issues.push({ field: 'name', rule: 'required', message: 'is required for a new account' });
  if (password.length < MIN_PASSWORD_LENGTH)
    issues.push({
      field: 'password',
      rule: 'min_length',
      message: `must be at least ${MIN_PASSWORD_LENGTH} characters`,
    });
  if (issues.length)
    throw new AppError('VALIDATION_FAILED', 'The new account needs a name and a longer password.', {
      fieldIssues: issues,
    });
}

export class InvitationService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly plans: PlanLimits,
    private readonly email: EmailOutboxService,
    private readonly sessions: SessionService,
    private readonly throttle: LoginThrottle,
    private readonly audit: AuditLog,
    private readonly c: InvitationConfig,
  ) {}

  async invite(p: Principal, input: { email: string; role: Role }, client: ClientInfo) {
    if (input.role === 'owner' && p.role !== 'owner')
      throw new AppError('ROLE_FORBIDDEN', 'Only an owner may invite an owner.', {
        details: { required_roles: ['owner'] },
      });
    const email = input.email.trim().toLowerCase();
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.c.INVITATION_TTL_S * 1000);
    await withTenant(this.db, p.tenantId, async (tx) => {
      const inviter = await profileIn(tx, p.tenantId, p.userId);
      if (!inviter) throw new AppError('NOT_FOUND', 'No such tenant.');
      const audit = { tenantId: p.tenantId, actor: { kind: 'user' as const, id: p.userId }, ip: client.ip };
      // Already a member: nothing to send; the answer is the same (members are listed anyway).
      if (await isMemberByEmail(tx, p.tenantId, email))
        return this.audit.record(tx, {
          ...audit,
          action: 'user.invite',
          detail: { role: input.role, already_member: true },
        });
      await this.plans.assertCanAddMember(tx, p.tenantId, input.role);
      await revokePending(tx, p.tenantId, email, now);
      const t = newSecretToken();
      const id = await insertInvitation(tx, {
        tenantId: p.tenantId,
        email,
        role: input.role,
        hash: t.hash,
        invitedBy: p.userId,
        expiresAt,
      });
      await queueInvitationEmail(this.email, tx, this.c, {
        to: email,
        inviter,
        token: t.token,
        role: input.role,
        key: `invitation:${id}`,
      });
      await this.audit.record(tx, {
        ...audit,
        action: 'user.invite',
        target: { type: 'invitation', id },
        detail: { role: input.role },
      });
    });
    return { email, role: input.role, expires_at: expiresAt.toISOString() };
  }

  async accept(
    input: { token: string; name?: string | undefined; password: string },
    client: ClientInfo,
  ): Promise<SignInAnswer> {
    if (!TOKEN_SHAPE.test(input.token)) throw invalid();
    const inv = await findInvitationByHash(this.db, hashToken(input.token));
    if (!inv) throw invalid();
    const user = await findUserByEmail(this.db, inv.email);
    let newHash: string | undefined;
    if (user?.password_hash) {
      // An existing account proves itself with its current password (throttled like a sign-in).
      const keys = this.throttle.keys(inv.email, client.ip);
      await this.throttle.attempt(keys);
      if (user.disabled_at || !(await verifyPassword(user.password_hash, input.password)))
        throw new AppError('LOGIN_FAILED', 'You already have an account: accept with its current password.');
      await this.throttle.succeeded(keys);
    } else {
      assertNewAccount(input.name, input.password);
      newHash = await hashPassword(input.password);
    }
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      // The account is global (owning role); the rest is the inviting tenant's (its scope).
      const userId =
        user?.id ??
        (await insertUser(tx, { email: inv.email, name: input.name?.trim() ?? '', passwordHash: newHash! }));
      if (user && newHash) {
        await setPasswordHash(tx, user.id, newHash);
        await setNameIfBlank(tx, user.id, input.name?.trim() ?? '');
      }
      await enterTenant(tx, inv.tenant_id);
      if (!(await claimInvitation(tx, inv.id, userId, now))) throw invalid();
      if (!(await membershipOf(tx, inv.tenant_id, userId))) {
        await this.plans.assertCanAddMember(tx, inv.tenant_id, inv.role);
        await insertMembership(tx, inv.tenant_id, userId, inv.role);
      }
      const profile = await profileIn(tx, inv.tenant_id, userId);
      if (!profile || profile.status === 'provisioning' || profile.status === 'deleted') throw invalid();
      if (profile.status !== 'active') throw new AppError('TENANT_SUSPENDED', 'This company account is suspended.');
      await this.audit.record(tx, {
        tenantId: inv.tenant_id,
        actor: { kind: 'user', id: userId },
        action: 'user.join',
        target: { type: 'invitation', id: inv.id },
        ip: client.ip,
        detail: { role: profile.role },
      });
      return this.sessions.start(tx, profile, client);
    });
  }
}
