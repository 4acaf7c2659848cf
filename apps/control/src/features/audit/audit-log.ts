/**
 * The audit log's one writer: who (user, portal link, system, operator) did what to which target,
 * when and from where. Call it in the same transaction as the change it records, so a change is
 * never without its entry and an entry never without its change.
 */
import type { Queryable } from '@platform/db';

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

  list(q: Queryable, tenantId: string, f: AuditFilter): Promise<{ rows: AuditRow[]; total: number }> {
    return listAudit(q, tenantId, f);
  }
}
