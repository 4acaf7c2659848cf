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
}

export async function insertMessage(db: Queryable, m: Omit<SmsMessageRow, 'id' | 'erp_model' | 'erp_id'>): Promise<string | null> {
  const r = await db.query<{ id: string }>(
    `INSERT INTO sms_messages (tenant_id, direction, line_number, contact_number, body, provider_message_id, status)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING id`,
    [m.tenant_id, m.direction, m.line_number, m.contact_number, m.body, m.provider_message_id, m.status],
  );
  return r.rows[0]?.id ?? null;
}

export async function findMessage(db: Queryable, id: string): Promise<SmsMessageRow | undefined> {
  return (await db.query<SmsMessageRow>('SELECT * FROM sms_messages WHERE id = $1', [id])).rows[0];
}

export async function markSent(db: Queryable, id: string, providerMessageId: string, status: string): Promise<void> {
  await db.query('UPDATE sms_messages SET provider_message_id = $2, status = $3, updated_at = now() WHERE id = $1', [id, providerMessageId, status]);
}

/** Status updates only move forward: a late "sent" never overwrites "delivered". */
export async function updateStatusByProviderId(db: Queryable, tenantId: string, providerMessageId: string, status: string): Promise<number> {
  const r = await db.query(
    `UPDATE sms_messages SET status = $3, updated_at = now()
     WHERE tenant_id = $1 AND provider_message_id = $2 AND NOT (status = 'delivered' AND $3 = 'sent')`,
    [tenantId, providerMessageId, status],
  );
  return r.rowCount;
}

export async function linkErpRecord(db: Queryable, id: string, model: string, erpId: number): Promise<void> {
  await db.query('UPDATE sms_messages SET erp_model = $2, erp_id = $3, updated_at = now() WHERE id = $1', [id, model, erpId]);
}

/** Returns false when this (provider, event id) was already handled. */
export async function recordReceipt(db: Queryable, tenantId: string, provider: string, eventId: string): Promise<boolean> {
  const r = await db.query(
    'INSERT INTO webhook_receipts (tenant_id, provider, event_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING event_id',
    [tenantId, provider, eventId],
  );
  return r.rows.length === 1;
}
