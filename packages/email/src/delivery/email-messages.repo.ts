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

/** What a delivery checks before sending: the message row's state and what blocks its recipient. */
export interface DeliveryState {
  status: EmailMessageRow['status'];
  provider: string | null;
  last_error: string | null;
  /** The active suppression that blocks the recipient, if any. */
  blocked: Suppression | null;
}

/**
 * SQL (one jsonb value, null without a row) of the DeliveryState of the message whose id is the SQL
 * `id`: its row and the active suppression that blocks its recipient (the tenant's own or a
 * platform-wide one; an unsubscribe blocks only the tenant's non-transactional mail, the messages
 * with an unsubscribe token). Read per batch, or inside the lanes' outbox claim (claimWith below).
 */
const deliveryStateSql = (id: string) =>
  `(SELECT jsonb_build_object('status', m.status, 'provider', m.provider, 'last_error', m.last_error,
     'blocked', (SELECT to_jsonb(s) FROM email_suppressions s
                 WHERE s.email = m.to_address AND s.lifted_at IS NULL AND (s.tenant_id = m.tenant_id OR s.scope = 'platform')
                   AND (s.reason <> 'unsubscribed' OR m.unsubscribe_token_hash IS NOT NULL)
                 ORDER BY (s.scope = 'platform') DESC, s.id LIMIT 1))
   FROM email_messages m WHERE m.id = ${id})`;

/**
 * The email lanes' outbox claim hook: each claimed row (`c`) comes with its message's DeliveryState,
 * read in the claim's statement. A payload id that is not a uuid reads as no row (never a failed claim).
 */
export const deliveryStateOfClaimedRow = deliveryStateSql(
  `CASE WHEN c.payload->>'id' ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN (c.payload->>'id')::uuid END`,
);

/** The DeliveryState of each id, in the order of `ids` (null: no row). */
export async function getDeliveryStates(db: Queryable, ids: readonly string[]): Promise<(DeliveryState | null)[]> {
  const r = await db.query<{ state: DeliveryState | null }>(
    `SELECT ${deliveryStateSql('x.id')} AS state FROM unnest($1::uuid[]) WITH ORDINALITY AS x(id, n) ORDER BY x.n`,
    [ids],
  );
  return r.rows.map((x) => x.state);
}

export async function getMessage(db: Queryable, id: string): Promise<EmailMessageRow | undefined> {
  return (await db.query<EmailMessageRow>('SELECT * FROM email_messages WHERE id = $1', [id])).rows[0];
}

/** Records a batch's sent messages in one write (each with the provider that took it). */
export async function markSentMany(
  db: Queryable,
  sent: { id: string; provider: string; providerMessageId: string }[],
): Promise<void> {
  if (!sent.length) return;
  await db.query(
    `UPDATE email_messages m SET status = 'sent', provider = s.provider, provider_message_id = s.pid, sent_at = now(),
       attempts = m.attempts + 1, last_error = NULL
     FROM unnest($1::uuid[], $2::text[], $3::text[]) AS s(id, provider, pid)
     -- The ANY lets the planner fetch the rows by key instead of scanning the table for the join.
     WHERE m.id = s.id AND m.id = ANY($1::uuid[])`,
    [sent.map((x) => x.id), sent.map((x) => x.provider), sent.map((x) => x.providerMessageId)],
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
