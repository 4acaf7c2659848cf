/**
 * Sign-in with email and password. Nothing in the answer tells whether an account exists: an
 * unknown email and a wrong password give the same LOGIN_FAILED after the same argon2 work (a dummy
 * hash stands in for a missing one), and throttling is keyed by the email as typed. Only after a
 * correct password does the answer say more (which companies to choose from, a suspended company).
 */
import { type Db, withTenant } from '@platform/db';
import { AppError } from '@platform/kernel';

import type { AuditLog } from '../audit/audit-log.js';
import { membershipsOfUser, type MembershipView, profileIn, spendAuditCost } from './accounts.repo.js';
import type { LoginThrottle } from './login-throttle.js';
import { verifyPasswordOrDummy } from './password-hasher.js';
import type { ClientInfo, SessionService, SignInAnswer } from './sessions.service.js';
import { findUserByEmail } from './users.repo.js';

export interface LoginInput {
  email: string;
  password: string;
  /** Slug or id of the company, needed when the account belongs to several. */
  tenant?: string | undefined;
}

const NO_USER = '00000000-0000-0000-0000-000000000000';
const failed = () => new AppError('LOGIN_FAILED', 'The email or password is not correct.');

export class LoginService {
  constructor(
    private readonly db: Db,
    private readonly throttle: LoginThrottle,
    private readonly sessions: SessionService,
    private readonly audit: AuditLog,
  ) {}

  async login(input: LoginInput, client: ClientInfo): Promise<SignInAnswer> {
    const email = input.email.trim().toLowerCase();
    const keys = this.throttle.keys(email, client.ip);
    await this.throttle.attempt(keys);
    const user = await findUserByEmail(this.db, email);
    const ok = await verifyPasswordOrDummy(user?.password_hash, input.password);
    // Asked either way, so an unknown email costs the same queries as a known one.
    const memberships = await membershipsOfUser(this.db, user?.id ?? NO_USER);
    const named = input.tenant
      ? memberships.filter((m) => m.tenant_id === input.tenant || m.slug === input.tenant)
      : [];
    if (!user || !ok || user.disabled_at) {
      if (!user) await spendAuditCost(this.db, keys.account);
      else await this.recordFailure(input.tenant ? named : memberships, user.id, client, ok ? 'disabled' : 'password');
      throw failed();
    }
    const chosen = this.choose(input.tenant ? named : memberships, !!input.tenant);
    if (chosen.kind === 'failed') {
      await this.recordFailure(memberships, user.id, client, 'tenant');
      throw failed();
    }
    // The password was right: the account's counter starts again whatever follows.
    await this.throttle.succeeded(keys);
    if (chosen.kind === 'suspended') throw new AppError('TENANT_SUSPENDED', 'This company account is suspended.');
    if (chosen.kind === 'several')
      throw new AppError('TENANT_REQUIRED', 'This account belongs to several companies: choose one.', {
        details: { tenants: chosen.tenants.map((m) => ({ slug: m.slug, name: m.name })) },
      });
    return withTenant(this.db, chosen.m.tenant_id, async (tx) => {
      const p = await profileIn(tx, chosen.m.tenant_id, user.id);
      if (!p) throw failed();
      const answer = await this.sessions.start(tx, p, client);
      await this.audit.record(tx, {
        tenantId: p.tenant_id,
        actor: { kind: 'user', id: user.id },
        action: 'auth.login',
        target: { type: 'user', id: user.id },
        ip: client.ip,
      });
      return answer;
    });
  }

  /** Which company to sign in to: only active ones count; provisioning or deleted ones do not exist yet/any more. */
  private choose(
    candidates: MembershipView[],
    named: boolean,
  ):
    | { kind: 'one'; m: MembershipView }
    | { kind: 'several'; tenants: MembershipView[] }
    | { kind: 'suspended' }
    | { kind: 'failed' } {
    const active = candidates.filter((m) => m.status === 'active');
    if (active.length === 1) return { kind: 'one', m: active[0]! };
    if (active.length > 1 && !named) return { kind: 'several', tenants: active };
    if (candidates.some((m) => m.status === 'suspended')) return { kind: 'suspended' };
    return { kind: 'failed' };
  }

  /** A failed sign-in of a known account is written to the audit log of each company it names. */
  private async recordFailure(tenants: MembershipView[], userId: string, client: ClientInfo, reason: string) {
    for (const m of tenants) {
      await withTenant(this.db, m.tenant_id, (tx) =>
        this.audit.record(tx, {
          tenantId: m.tenant_id,
          actor: { kind: 'user', id: userId },
          action: 'auth.login_failed',
          target: { type: 'user', id: userId },
          ip: client.ip,
          detail: { reason },
        }),
      );
    }
  }
}
