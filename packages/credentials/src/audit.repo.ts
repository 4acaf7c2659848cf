/** Audit trail of REST API credentials (restapi_audit_events): creation, revocation, failed authentication, revoked token families. */
import type { Queryable } from '@platform/db';

export type AuditEvent =
  | 'key_created'
  | 'key_revoked'
  | 'auth_failed'
  | 'token_family_revoked'
  | 'app_created'
  | 'app_revoked'
  | 'app_secret_rotated'
  | 'consent_granted';

export interface AuditEntry {
  event: AuditEvent;
  keyId?: number | null;
  appId?: number | null;
  login?: string | null;
  clientIp?: string | null;
  /** Never a secret: reasons, key prefixes, client ids. */
  detail?: Record<string, unknown>;
}

export interface AuditRow {
  id: number;
  event: AuditEvent;
  key_id: number | null;
  app_id: number | null;
  login: string | null;
  client_ip: string | null;
  detail: Record<string, unknown>;
  created_at: Date;
}

export class AuditRepo {
  constructor(
    private readonly db: Queryable,
    private readonly tenantId: string,
  ) {}

  async record(e: AuditEntry, q: Queryable = this.db): Promise<void> {
    await q.query(
      `INSERT INTO restapi_audit_events (tenant_id, event, key_id, app_id, login, client_ip, detail) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        this.tenantId,
        e.event,
        e.keyId ?? null,
        e.appId ?? null,
        e.login ?? null,
        e.clientIp ?? null,
        JSON.stringify(e.detail ?? {}),
      ],
    );
  }

  async list(limit = 100): Promise<AuditRow[]> {
    const r = await this.db.query<AuditRow>(
      `SELECT id, event, key_id, app_id, login, client_ip, detail, created_at FROM restapi_audit_events
        WHERE tenant_id = $1 ORDER BY id DESC LIMIT $2`,
      [this.tenantId, limit],
    );
    return r.rows;
  }
}
