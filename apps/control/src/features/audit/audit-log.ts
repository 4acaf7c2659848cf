/**
 * The audit log's one writer: who (user, portal link, system, operator) did what to which target,
 * when and from where. Call it in the same transaction as the change it records, so a change is
 * never without its entry and an entry never without its change.
 */
import { type Db, type Queryable, withTenant } from '@platform/db';

import { type AuditFilter, type AuditRow, insertAudit, listAudit } from './audit.repo.js';

export interface AuditEntry {
  tenantId: string;
  actor: { kind: 'user' | 'portal' | 'system' | 'operator'; id?: string };
  /** Dotted verb, e.g. `auth.login`, `job.complete`, `domain.add`. */
  action: string;
  target?: { type: string; id: string | number };
  ip?: string;
  /** Never secrets or tokens: names and ids only. */
  detail?: Record<string, unknown>;
}

const IP = /^[0-9a-fA-F:.]{2,45}$/;

export class AuditLog {
  async record(q: Queryable, e: AuditEntry): Promise<void> {
    await insertAudit(q, {
      tenantId: e.tenantId,
      actorKind: e.actor.kind,
      actorId: e.actor.id ?? null,
      action: e.action,
      targetType: e.target?.type ?? null,
      targetId: e.target ? String(e.target.id) : null,
      ip: e.ip && IP.test(e.ip) ? e.ip : null,
      detail: e.detail ?? {},
    });
  }

  /**
   * A signed-in user's action on something the platform database does not hold (an ERP record): no
   * change to share a transaction with, so the entry gets its own, in the user's tenant.
   */
  recordUserAction(
    db: Db,
    user: { tenantId: string; userId: string },
    e: Pick<AuditEntry, 'action' | 'target' | 'ip' | 'detail'>,
  ): Promise<void> {
    return withTenant(db, user.tenantId, (tx) =>
      this.record(tx, { ...e, tenantId: user.tenantId, actor: { kind: 'user', id: user.userId } }),
    );
  }

  list(q: Queryable, tenantId: string, f: AuditFilter): Promise<{ rows: AuditRow[]; total: number }> {
    return listAudit(q, tenantId, f);
  }
}
