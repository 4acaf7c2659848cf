/**
 * The audit trail of REST API credentials, as the features that issue or check credentials (API
 * keys, OAuth, the RPC gateway's failed logins) use it. The table itself is audit.repo.ts's alone.
 */
import type { Queryable } from '@platform/db';

import type { AuditEntry, AuditRepo, AuditRow } from './audit.repo.js';

export type { AuditEntry, AuditEvent, AuditRow } from './audit.repo.js';

export class AuditService {
  constructor(private readonly repo: AuditRepo) {}

  /** Pass the caller's transaction as `q` so the event is written with the change it records. */
  record(e: AuditEntry, q?: Queryable): Promise<void> {
    return this.repo.record(e, q);
  }

  /** The latest events first. */
  list(limit?: number): Promise<AuditRow[]> {
    return this.repo.list(limit);
  }
}
