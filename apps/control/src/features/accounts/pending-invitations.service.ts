/**
 * The team screen's open invitations: list, resend, revoke (docs/control-plane.md, "Accounts").
 * Only a token's hash is kept, so resending makes a new link (and a new expiry) and the old link
 * stops working; the email goes through the email outbox like the first one. Resends are limited per
 * invitation, so the button cannot be used to flood someone's inbox. Revoking makes the link invalid
 * at once (accepting it answers INVITATION_INVALID).
 */
import { type Db, type Queryable, withTenant } from '@platform/db';
import type { EmailOutboxService } from '@platform/email';
import type { RateLimiter } from '@platform/http-kit';
import { AppError, type Clock } from '@platform/kernel';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import { profileIn } from './accounts.repo.js';
import { listPending, type PendingInvitationRow, renewPending, revokeOne } from './invitations.repo.js';
import { type InvitationConfig, queueInvitationEmail } from './invitations.service.js';
import { newSecretToken } from './secret-token.js';
import { displayNames } from './team.repo.js';

/** Three resends of one invitation an hour. */
export const RESEND_LIMIT = { name: 'invitation-resend', max: 3, windowSeconds: 3_600 };

export interface PendingInvitation extends Omit<PendingInvitationRow, 'invited_by'> {
  invited_by: string | null;
}

const notFound = () => new AppError('NOT_FOUND', 'No such open invitation (accepted, revoked, replaced or expired).');

export class PendingInvitations {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly email: EmailOutboxService,
    private readonly limiter: RateLimiter,
    private readonly audit: AuditLog,
    private readonly c: InvitationConfig,
  ) {}

  private record(
    tx: Queryable,
    p: Principal,
    action: string,
    id: string,
    ip?: string,
    detail?: Record<string, unknown>,
  ) {
    return this.audit.record(tx, {
      tenantId: p.tenantId,
      actor: { kind: 'user', id: p.userId },
      action,
      target: { type: 'invitation', id },
      ...(ip ? { ip } : {}),
      ...(detail ? { detail } : {}),
    });
  }

  list(tenantId: string): Promise<PendingInvitation[]> {
    return withTenant(this.db, tenantId, async (tx) => {
      const rows = await listPending(tx, tenantId, this.clock.now());
      const names = await displayNames(tx, [...new Set(rows.flatMap((r) => (r.invited_by ? [r.invited_by] : [])))]);
      return rows.map((r) => ({ ...r, invited_by: r.invited_by ? (names.get(r.invited_by) ?? null) : null }));
    });
  }

  /** RATE_LIMITED past RESEND_LIMIT; NOT_FOUND when the invitation is not open in this tenant. */
  async resend(p: Principal, id: string, ip: string | undefined): Promise<PendingInvitation> {
    await this.limiter.consume(RESEND_LIMIT, `${p.tenantId}:${id}`);
    const now = this.clock.now();
    const t = newSecretToken();
    const expiresAt = new Date(now.getTime() + this.c.INVITATION_TTL_S * 1000);
    return withTenant(this.db, p.tenantId, async (tx) => {
      const row = await renewPending(tx, p.tenantId, id, now, { hash: t.hash, expiresAt });
      const sender = await profileIn(tx, p.tenantId, p.userId);
      if (!row || !sender) throw notFound();
      if (row.role === 'owner' && p.role !== 'owner')
        throw new AppError('ROLE_FORBIDDEN', 'Only an owner may invite an owner.', {
          details: { required_roles: ['owner'] },
        });
      await queueInvitationEmail(this.email, tx, this.c, {
        to: row.email,
        inviter: sender,
        token: t.token,
        role: row.role,
        // One email per link: the key names this link (its hash), not only the invitation.
        key: `invitation:${id}:${t.hash.toString('hex').slice(0, 16)}`,
      });
      await this.record(tx, p, 'user.invite_resend', id, ip, { role: row.role });
      return { ...row, invited_by: sender.user_name || sender.email };
    });
  }

  async revoke(p: Principal, id: string, ip: string | undefined): Promise<void> {
    await withTenant(this.db, p.tenantId, async (tx) => {
      if (!(await revokeOne(tx, p.tenantId, id, this.clock.now()))) throw notFound();
      await this.record(tx, p, 'user.invite_revoke', id, ip);
    });
  }
}
