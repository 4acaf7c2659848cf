/**
 * The audit log as the owner's screen reads it: a page of entries with each person named, actors and
 * members as targets alike (their name, else email: the screen never shows a bare uuid), and the actions there are to filter by. Names come
 * from the accounts feature's `displayNames`, passed in by deps.ts (users is the accounts' table).
 */
import type { AuditEntryView } from '@platform/contracts';
import { type Db, type Queryable, withTenant } from '@platform/db';

import { type AuditFilter, distinctActions, listAudit } from './audit.repo.js';

export type DisplayNames = (q: Queryable, userIds: string[]) => Promise<Map<string, string>>;

export class AuditReader {
  constructor(
    private readonly db: Db,
    private readonly names: DisplayNames,
  ) {}

  page(tenantId: string, f: AuditFilter): Promise<{ items: AuditEntryView[]; total: number }> {
    return withTenant(this.db, tenantId, async (tx) => {
      const { rows, total } = await listAudit(tx, tenantId, f);
      const people = rows.flatMap((r) => [
        ...(r.actor_kind === 'user' && r.actor_id ? [r.actor_id] : []),
        ...(r.target_type === 'user' && r.target_id ? [r.target_id] : []),
      ]);
      const names = await this.names(tx, [...new Set(people)]);
      const items = rows.map((r) => ({
        id: Number(r.id),
        at: new Date(r.at).toISOString(),
        actor: { kind: r.actor_kind, id: r.actor_id, name: r.actor_id ? (names.get(r.actor_id) ?? null) : null },
        action: r.action,
        target: r.target_type
          ? {
              type: r.target_type,
              id: r.target_id,
              name: r.target_type === 'user' && r.target_id ? (names.get(r.target_id) ?? null) : null,
            }
          : null,
        ip: r.ip,
        detail: r.detail,
      }));
      return { items, total };
    });
  }

  actions(tenantId: string): Promise<string[]> {
    return withTenant(this.db, tenantId, (tx) => distinctActions(tx, tenantId));
  }
}
