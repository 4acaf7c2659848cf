/**
 * The one owner of `webhook_receipts`: which provider events (per tenant, provider and event id)
 * were already handled, so a re-delivered webhook is acknowledged without acting twice. The SMS and
 * accounting webhook services call it; the worker's retention job prunes it.
 */
import type { Queryable } from '@platform/db';

/** Records the event as handled; false when it already was (call it in the transaction that acts on it). */
export async function recordWebhookReceipt(
  db: Queryable,
  tenantId: string,
  provider: string,
  eventId: string,
): Promise<boolean> {
  const r = await db.query(
    'INSERT INTO webhook_receipts (tenant_id, provider, event_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING event_id',
    [tenantId, provider, eventId],
  );
  return r.rows.length === 1;
}

/** Whether the event was already handled (a cheap early answer before any provider call). */
export async function webhookReceiptSeen(
  db: Queryable,
  tenantId: string,
  provider: string,
  eventId: string,
): Promise<boolean> {
  const r = await db.query('SELECT 1 FROM webhook_receipts WHERE tenant_id = $1 AND provider = $2 AND event_id = $3', [
    tenantId,
    provider,
    eventId,
  ]);
  return r.rows.length > 0;
}

/** Deletes up to `limit` receipts received before `before` (short locks); returns how many went. */
export async function pruneWebhookReceipts(db: Queryable, before: Date, limit: number): Promise<number> {
  return (
    await db.query(
      'DELETE FROM webhook_receipts WHERE ctid IN (SELECT ctid FROM webhook_receipts WHERE received_at < $1 LIMIT $2)',
      [before, limit],
    )
  ).rowCount;
}
