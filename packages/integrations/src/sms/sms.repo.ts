/** SQL of SMS messages and webhook receipts. */
import type { Queryable } from '@platform/db';

export interface SmsMessageRow {
  id: string;
  tenant_id: string;
  direction: 'outbound' | 'inbound';
  line_number: string;
  contact_number: string;
  body: string;
  provider_message_id: string | null;
  status: string;
  erp_model: string | null;
  erp_id: number | null;
  /** The ERP chatter message (mail.message) an inbound SMS was posted as. */
  erp_message_id: number | null;
  /** Why the text was not sent (`opted out`), or null. */
  refused_reason: string | null;
  /** A reply to an SMS keyword (STOP's confirmation, HELP): sent even to an opted-out number. */
  keyword_reply: boolean;
}

export async function insertMessage(
  db: Queryable,
  m: Omit<SmsMessageRow, 'id' | 'erp_model' | 'erp_id' | 'erp_message_id' | 'refused_reason' | 'keyword_reply'> & {
    keyword_reply?: boolean;
  },
): Promise<string | null> {
  const r = await db.query<{ id: string }>(
    `INSERT INTO sms_messages (tenant_id, direction, line_number, contact_number, body, provider_message_id, status, keyword_reply)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING id`,
    [
      m.tenant_id,
      m.direction,
      m.line_number,
      m.contact_number,
      m.body,
      m.provider_message_id,
      m.status,
      m.keyword_reply ?? false,
    ],
  );
  return r.rows[0]?.id ?? null;
}

/** The text stored under a provider's message id, if any. */
export async function findByProviderId(
  db: Queryable,
  tenantId: string,
  providerMessageId: string,
): Promise<SmsMessageRow | undefined> {
  const r = await db.query<SmsMessageRow>(
    'SELECT * FROM sms_messages WHERE tenant_id = $1 AND provider_message_id = $2',
    [tenantId, providerMessageId],
  );
  return r.rows[0];
}

export async function findMessage(db: Queryable, id: string): Promise<SmsMessageRow | undefined> {
  return (await db.query<SmsMessageRow>('SELECT * FROM sms_messages WHERE id = $1', [id])).rows[0];
}

/** A tenant's own text by id: another tenant's is not found. */
export async function findTenantMessage(
  db: Queryable,
  tenantId: string,
  id: string,
): Promise<SmsMessageRow | undefined> {
  return (await db.query<SmsMessageRow>('SELECT * FROM sms_messages WHERE tenant_id = $1 AND id = $2', [tenantId, id]))
    .rows[0];
}

/** The send's answer; a provider notice that arrived first (adoptInDoubt) keeps its later status. */
export async function markSent(db: Queryable, id: string, providerMessageId: string, status: string): Promise<void> {
  await db.query(
    `UPDATE sms_messages SET status = CASE WHEN provider_message_id IS NULL THEN $3 ELSE status END,
       provider_message_id = coalesce(provider_message_id, $2), updated_at = now() WHERE id = $1`,
    [id, providerMessageId, status],
  );
}

/** `sending` before the provider is called; `unconfirmed` / `queued` after a failure, unless a notice already placed it. */
export async function setSendState(
  db: Queryable,
  id: string,
  status: 'sending' | 'unconfirmed' | 'queued',
): Promise<void> {
  await db.query(
    'UPDATE sms_messages SET status = $2, updated_at = now() WHERE id = $1 AND provider_message_id IS NULL',
    [id, status],
  );
}

/**
 * The texts to send (in the order of `ids`; undefined: gone) with, in the same round trip, whether
 * each number opted out of the tenant's texts (sms_opt_outs) and, for a send in flight or
 * unconfirmed, how long ago it was tried (ms).
 */
export async function findMessagesToSend(
  db: Queryable,
  ids: readonly string[],
): Promise<((SmsMessageRow & { opted_out: boolean; unconfirmed_ms: number | null }) | undefined)[]> {
  const r = await db.query<SmsMessageRow & { opted_out: boolean; unconfirmed_ms: number | null }>(
    `SELECT m.*,
            EXISTS (SELECT 1 FROM sms_opt_outs o WHERE o.tenant_id = m.tenant_id AND o.phone_number = m.contact_number)
              AS opted_out,
            CASE WHEN m.status IN ('sending', 'unconfirmed') AND m.provider_message_id IS NULL
                 THEN (extract(epoch FROM now() - m.updated_at) * 1000)::float8 END AS unconfirmed_ms
     FROM sms_messages m WHERE m.id = ANY($1::uuid[])`,
    [ids],
  );
  const byId = new Map(
    r.rows.map((m) => [m.id, { ...m, unconfirmed_ms: m.unconfirmed_ms === null ? null : Number(m.unconfirmed_ms) }]),
  );
  return ids.map((id) => byId.get(id));
}

/**
 * A provider notice for a message we have no id for: the send whose answer was lost (in flight or
 * unconfirmed, same line, contact and text) takes its id and status. Returns whether one did.
 */
export async function adoptInDoubt(
  db: Queryable,
  tenantId: string,
  m: { providerMessageId: string; line: string; contact: string; body: string },
  status: string,
): Promise<boolean> {
  const r = await db.query(
    `UPDATE sms_messages SET provider_message_id = $2, status = $3, updated_at = now()
     WHERE id = (SELECT id FROM sms_messages WHERE tenant_id = $1 AND direction = 'outbound' AND provider_message_id IS NULL
                   AND status IN ('sending', 'unconfirmed') AND line_number = $4 AND contact_number = $5 AND body = $6
                 ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
       AND NOT EXISTS (SELECT 1 FROM sms_messages WHERE tenant_id = $1 AND provider_message_id = $2)`,
    [tenantId, m.providerMessageId, status, m.line, m.contact, m.body],
  );
  return r.rowCount === 1;
}

/** Status updates only move forward: a late "sent" never overwrites "delivered". */
export async function updateStatusByProviderId(
  db: Queryable,
  tenantId: string,
  providerMessageId: string,
  status: string,
): Promise<number> {
  const r = await db.query(
    `UPDATE sms_messages SET status = $3, updated_at = now()
     WHERE tenant_id = $1 AND provider_message_id = $2 AND NOT (status = 'delivered' AND $3 = 'sent')`,
    [tenantId, providerMessageId, status],
  );
  return r.rowCount;
}

export async function linkErpRecord(db: Queryable, id: string, model: string, erpId: number): Promise<void> {
  await db.query('UPDATE sms_messages SET erp_model = $2, erp_id = $3, updated_at = now() WHERE id = $1', [
    id,
    model,
    erpId,
  ]);
}

export async function linkErpMessage(db: Queryable, id: string, erpMessageId: number): Promise<void> {
  await db.query('UPDATE sms_messages SET erp_message_id = $2, updated_at = now() WHERE id = $1', [id, erpMessageId]);
}

/** The replay cache: false when this signature was already used for this subject (a message id). */
export async function recordSignature(
  db: Queryable,
  tenantId: string,
  provider: string,
  signature: string,
  subject: string,
): Promise<boolean> {
  const r = await db.query(
    'INSERT INTO webhook_signatures (tenant_id, provider, signature, subject) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING subject',
    [tenantId, provider, signature, subject],
  );
  return r.rows.length === 1;
}

export async function signatureSeen(
  db: Queryable,
  tenantId: string,
  provider: string,
  signature: string,
  subject: string,
): Promise<boolean> {
  const r = await db.query(
    'SELECT 1 FROM webhook_signatures WHERE tenant_id = $1 AND provider = $2 AND signature = $3 AND subject = $4',
    [tenantId, provider, signature, subject],
  );
  return r.rows.length > 0;
}

/** Signatures older than this are refused as stale anyway: their cache rows can go. */
export async function pruneSignatures(db: Queryable, olderThanSeconds: number): Promise<number> {
  return (
    await db.query(
      `DELETE FROM webhook_signatures WHERE seen_at < now() - ($1::double precision * interval '1 second')`,
      [olderThanSeconds],
    )
  ).rowCount;
}
