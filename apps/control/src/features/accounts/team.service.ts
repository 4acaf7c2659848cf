/**
 * A tenant's members: list, change a role, remove. Owners and admins manage members; only an owner
 * makes an owner or touches an owner; a tenant always keeps one owner. A role change takes effect at
 * once (access tokens of a session carry the member's current role, auth.guard.ts); removal ends the
 * member's sessions in this tenant (their account and other memberships stay).
 */
import { type Db, withTenant } from '@platform/db';
import { AppError, type Clock } from '@platform/kernel';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal, Role } from '../auth/principal.js';
import type { PlanLimits } from '../plans/plan-limits.service.js';
import { revokeUserSessions } from './sessions.repo.js';
import type { ClientInfo } from './sessions.service.js';
import {
  deleteMembership,
  listMembers,
  listTechnicians,
  lockMember,
  memberById,
  type MemberRow,
  setRole,
} from './team.repo.js';

const notFound = () => new AppError('NOT_FOUND', 'No such member.');
const ownersOnly = (what: string) =>
  new AppError('ROLE_FORBIDDEN', `Only an owner may ${what}.`, { details: { required_roles: ['owner'] } });
const lastOwner = () =>
  new AppError('LAST_OWNER', 'A company keeps at least one owner: make someone else owner first.');

export class TeamService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly plans: PlanLimits,
    private readonly audit: AuditLog,
  ) {}

  list(tenantId: string, page: number, pageSize: number): Promise<{ rows: MemberRow[]; total: number }> {
    return withTenant(this.db, tenantId, (tx) => listMembers(tx, tenantId, pageSize, (page - 1) * pageSize));
  }

  technicians(tenantId: string): Promise<{ id: string; name: string }[]> {
    return withTenant(this.db, tenantId, (tx) => listTechnicians(tx, tenantId));
  }

  async member(tenantId: string, userId: string): Promise<MemberRow> {
    const m = await withTenant(this.db, tenantId, (tx) => memberById(tx, tenantId, userId));
    if (!m) throw notFound();
    return m;
  }

  async changeRole(p: Principal, userId: string, role: Role, client: ClientInfo): Promise<void> {
    await withTenant(this.db, p.tenantId, async (tx) => {
      const m = await lockMember(tx, p.tenantId, userId);
      if (!m) throw notFound();
      if (m.role === role) return;
      if ((role === 'owner' || m.role === 'owner') && p.role !== 'owner') throw ownersOnly('make or change an owner');
      if (m.role === 'owner' && m.owners <= 1) throw lastOwner();
      // Becoming a technician takes a technician seat of the plan (the person already has a user seat).
      if (role === 'technician') await this.plans.assertCanAddMember(tx, p.tenantId, role, { existing: true });
      await setRole(tx, p.tenantId, userId, role);
      await this.audit.record(tx, {
        tenantId: p.tenantId,
        actor: { kind: 'user', id: p.userId },
        action: 'user.role_change',
        target: { type: 'user', id: userId },
        ip: client.ip,
        detail: { from: m.role, to: role },
      });
    });
  }

  async remove(p: Principal, userId: string, client: ClientInfo): Promise<void> {
    await withTenant(this.db, p.tenantId, async (tx) => {
      const m = await lockMember(tx, p.tenantId, userId);
      if (!m) throw notFound();
      if (m.role === 'owner' && p.role !== 'owner') throw ownersOnly('remove an owner');
      if (m.role === 'owner' && m.owners <= 1) throw lastOwner();
      await deleteMembership(tx, p.tenantId, userId);
      const ended = await revokeUserSessions(tx, p.tenantId, userId, 'removed', this.clock.now());
      await this.audit.record(tx, {
        tenantId: p.tenantId,
        actor: { kind: 'user', id: p.userId },
        action: 'user.remove',
        target: { type: 'user', id: userId },
        ip: client.ip,
        detail: { role: m.role, sessions_ended: ended },
      });
    });
  }
}
