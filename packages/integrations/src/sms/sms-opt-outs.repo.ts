/** SQL of SMS opt-outs (sms_opt_outs) and the refusal of a text to an opted-out number. */
import type { Queryable } from '@platform/db';

export async function optOut(db: Queryable, tenantId: string, phone: string, keyword: string): Promise<void> {
  await db.query(
    `INSERT INTO sms_opt_outs (tenant_id, phone_number, keyword) VALUES ($1, $2, $3)
     ON CONFLICT (tenant_id, phone_number) DO UPDATE SET keyword = EXCLUDED.keyword, opted_out_at = now()`,
    [tenantId, phone, keyword],
  );
}

export async function optIn(db: Queryable, tenantId: string, phone: string): Promise<void> {
  await db.query('DELETE FROM sms_opt_outs WHERE tenant_id = $1 AND phone_number = $2', [tenantId, phone]);
}

/** A text not sent, and why; one already accepted by the provider is left as it is. */
export async function refuse(db: Queryable, id: string, reason: string): Promise<void> {
  await db.query(
    `UPDATE sms_messages SET status = 'refused', refused_reason = $2, updated_at = now()
     WHERE id = $1 AND provider_message_id IS NULL`,
    [id, reason],
  );
}

/** Whether the number (E.164 digits) texted STOP to this tenant and has not texted START since. */
export async function smsOptedOut(db: Queryable, tenantId: string, phone: string): Promise<boolean> {
  const r = await db.query('SELECT 1 FROM sms_opt_outs WHERE tenant_id = $1 AND phone_number = $2', [tenantId, phone]);
  return r.rows.length > 0;
}
