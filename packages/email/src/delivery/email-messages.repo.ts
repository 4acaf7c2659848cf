/** SQL of email_messages: one row per accepted email, its status and the provider that took it. */
import type { Queryable } from '@platform/db';

import type { Suppression } from '../suppression/suppression.repo.js';

export interface EmailMessageRow {
  id: string;
  tenant_id: string;
  message_key: string;
  lane: 'transactional' | 'bulk';
  template: string | null;
  to_address: string;
  from_address: string;
  subject: string;
  status: 'queued' | 'sent' | 'suppressed' | 'failed';
  provider: string | null;
  provider_message_id: string | null;
  attempts: number;
  last_error: string | null;
  created_at: Date;
  sent_at: Date | null;
  /** SHA-256 (hex) of the one-click unsubscribe token of a non-transactional message; null otherwise. */
  unsubscribe_token_hash: string | null;
}

export interface NewEmailMessage {
  id: string;
  tenantId: string;
  key: string;
  lane: 'transactional' | 'bulk';
  template: string | null;
  to: string;
  from: string;
  subject: string;
  unsubscribeTokenHash?: string | null;
}

/** Returns the id of the new row, or of the row that already had this key (nothing inserted). */
export async function insertMessage(tx: Queryable, m: NewEmailMessage): Promise<{ id: string; created: boolean }> {
  const r = await tx.query<{ id: string }>(
    `INSERT INTO email_messages (id, tenant_id, message_key, lane, template, to_address, from_address, subject,
                                 unsubscribe_token_hash)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (tenant_id, message_key) DO NOTHING RETURNING id`,
    [
      m.id,
      m.tenantId,
      m.key,
      m.lane,
      m.template,
      m.to.toLowerCase(),
      m.from,
      m.subject,
      m.unsubscribeTokenHash ?? null,
    ],
  );
  if (r.rows[0]) return { id: r.rows[0].id, created: true };
  const old = await tx.query<{ id: string }>(
    'SELECT id FROM email_messages WHERE tenant_id = $1 AND message_key = $2',
    [m.tenantId, m.key],
  );
  return { id: old.rows[0]!.id, created: false };
}

/**
 * Message rows and, in the same round trip, the active suppression that blocks each recipient (the
 * tenant's own or a platform-wide one), if any; in the order of `ids` (undefined: no row). An
 * unsubscribe blocks only the tenant's non-transactional mail (messages with an unsubscribe token).
 */
export async function getMessagesForDelivery(
  db: Queryable,
  ids: readonly string[],
): Promise<((EmailMessageRow & { blocked: Suppression | null }) | undefined)[]> {
  const r = await db.query<EmailMessageRow & { blocked: Suppression | null }>(
    `SELECT m.*, (SELECT to_jsonb(s) FROM email_suppressions s
                  WHERE s.email = m.to_address AND s.lifted_at IS NULL AND (s.tenant_id = m.tenant_id OR s.scope = 'platform')
                    AND (s.reason <> 'unsubscribed' OR m.unsubscribe_token_hash IS NOT NULL)
                  ORDER BY (s.scope = 'platform') DESC, s.id LIMIT 1) AS blocked
     FROM email_messages m WHERE m.id = ANY($1::uuid[])`,
    [ids],
  );
  const byId = new Map(r.rows.map((m) => [m.id, m]));
  return ids.map((id) => byId.get(id));
}

export async function getMessage(db: Queryable, id: string): Promise<EmailMessageRow | undefined> {
  return (await db.query<EmailMessageRow>('SELECT * FROM email_messages WHERE id = $1', [id])).rows[0];
}

export async function markSent(db: Queryable, id: string, provider: string, providerMessageId: string): Promise<void> {
  await db.query(
    `UPDATE email_messages SET status = 'sent', provider = $2, provider_message_id = $3, sent_at = now(), attempts = attempts + 1, last_error = NULL WHERE id = $1`,
    [id, provider, providerMessageId],
  );
}

export async function markAttempt(
  db: Queryable,
  id: string,
  status: 'queued' | 'suppressed' | 'failed',
  error: string,
): Promise<void> {
  await db.query(`UPDATE email_messages SET status = $2, attempts = attempts + 1, last_error = $3 WHERE id = $1`, [
    id,
    status,
    error.slice(0, 1000),
  ]);
}

export async function tenantOfProviderMessage(
  db: Queryable,
  provider: string,
  providerMessageId: string,
): Promise<string | undefined> {
  const r = await db.query<{ tenant_id: string }>(
    'SELECT tenant_id FROM email_messages WHERE provider_message_id = $1 AND provider = $2 LIMIT 1',
    [providerMessageId, provider],
  );
  return r.rows[0]?.tenant_id;
}

/** The tenant and recipient of the non-transactional message whose unsubscribe token hashes to `hash`. */
export async function findByUnsubscribeToken(
  db: Queryable,
  hash: string,
): Promise<{ tenant_id: string; to_address: string } | undefined> {
  const r = await db.query<{ tenant_id: string; to_address: string }>(
    'SELECT tenant_id, to_address FROM email_messages WHERE unsubscribe_token_hash = $1',
    [hash],
  );
  return r.rows[0];
}
