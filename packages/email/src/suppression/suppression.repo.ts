/** SQL of the shared suppression list (email_suppressions). */
import type { Queryable } from '@platform/db';

/** `unsubscribed`: the recipient's own request (one-click link); it blocks only non-transactional mail. */
export type SuppressionReason = 'hard_bounce' | 'complaint' | 'inactive_recipient' | 'unsubscribed';

export interface Suppression {
  id: number;
  tenant_id: string;
  email: string;
  scope: 'tenant' | 'platform';
  reason: SuppressionReason;
  provider: string;
  provider_event_id: string | null;
  detail: Record<string, unknown>;
  created_at: Date;
  lifted_at: Date | null;
  lifted_by: string | null;
}

export interface NewSuppression {
  tenantId: string;
  email: string;
  scope: 'tenant' | 'platform';
  reason: SuppressionReason;
  provider: string;
  providerEventId?: string;
  detail?: Record<string, unknown>;
}

/**
 * Adds an active entry; an address already suppressed in that scope keeps its first entry, except
 * that a bounce or complaint replaces an unsubscribe (which blocks less: only non-transactional mail).
 */
export async function insertSuppression(db: Queryable, s: NewSuppression): Promise<boolean> {
  const r = await db.query(
    `INSERT INTO email_suppressions (tenant_id, email, scope, reason, provider, provider_event_id, detail)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (tenant_id, email, scope) WHERE lifted_at IS NULL DO UPDATE
       SET reason = EXCLUDED.reason, provider = EXCLUDED.provider, provider_event_id = EXCLUDED.provider_event_id,
           detail = EXCLUDED.detail, created_at = now()
       WHERE email_suppressions.reason = 'unsubscribed' AND EXCLUDED.reason <> 'unsubscribed'`,
    [
      s.tenantId,
      s.email.toLowerCase(),
      s.scope,
      s.reason,
      s.provider,
      s.providerEventId ?? null,
      JSON.stringify(s.detail ?? {}),
    ],
  );
  return r.rowCount > 0;
}

/** The active entry that blocks sending to `email` for `tenantId` (its own, or a platform-wide one). */
export async function activeSuppression(
  db: Queryable,
  tenantId: string,
  email: string,
): Promise<Suppression | undefined> {
  const r = await db.query<Suppression>(
    `SELECT * FROM email_suppressions WHERE email = $2 AND lifted_at IS NULL AND (tenant_id = $1 OR scope = 'platform')
     ORDER BY (scope = 'platform') DESC, id LIMIT 1`,
    [tenantId, email.toLowerCase()],
  );
  return r.rows[0];
}

export async function listSuppressions(
  db: Queryable,
  tenantId: string,
  opts: { email?: string; includeLifted?: boolean } = {},
): Promise<Suppression[]> {
  const r = await db.query<Suppression>(
    `SELECT * FROM email_suppressions WHERE (tenant_id = $1 OR scope = 'platform')
       AND ($2::text IS NULL OR email = $2) AND ($3 OR lifted_at IS NULL) ORDER BY created_at DESC, id DESC LIMIT 500`,
    [tenantId, opts.email?.toLowerCase() ?? null, opts.includeLifted ?? false],
  );
  return r.rows;
}

export async function liftSuppression(db: Queryable, id: number, by: string): Promise<void> {
  await db.query(
    `UPDATE email_suppressions SET lifted_at = now(), lifted_by = $2 WHERE id = $1 AND lifted_at IS NULL`,
    [id, by],
  );
}
