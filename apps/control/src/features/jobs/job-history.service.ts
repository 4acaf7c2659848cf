/**
 * A job's history as the office reads it: what was done to it through the platform (created,
 * scheduled, assigned, moved between stages, completed, notes, checklist, files), oldest first, from
 * the audit log's entries about the job. Readable by whoever may read the job.
 */
import { type Db, withTenant } from '@platform/db';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import type { JobsReader } from './jobs.service.js';

export interface JobHistoryEntry {
  at: string;
  action: string;
  actor: { kind: string; id: string | null };
  detail: Record<string, unknown>;
}

export class JobHistory {
  constructor(
    private readonly deps: { db: Db; audit: AuditLog },
    private readonly reader: JobsReader,
  ) {}

  async of(p: Principal, jobId: string): Promise<{ items: JobHistoryEntry[] }> {
    await this.reader.get(p, jobId);
    const { rows } = await withTenant(this.deps.db, p.tenantId, (tx) =>
      this.deps.audit.list(tx, p.tenantId, { target: { type: 'job', id: jobId }, limit: 200, offset: 0 }),
    );
    const items = rows.reverse().map((r) => ({
      at: new Date(r.at).toISOString(),
      action: r.action,
      actor: { kind: r.actor_kind, id: r.actor_id ?? null },
      detail: (r.detail ?? {}) as Record<string, unknown>,
    }));
    return { items };
  }
}
