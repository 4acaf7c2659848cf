/** The one owner of `webhook_deliveries`: one row per event and endpoint, the delivery log (SQL only). */
import { type Queryable, rowExists } from '@platform/db';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookDeliveryRow {
  id: number;
  tenant_id: string;
  endpoint_id: string;
  event_key: string;
  event_type: string;
  webhook_id: string;
  occurred_at: Date;
  data: Record<string, unknown>;
  status: DeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  last_attempt_at: Date | null;
  settled_at: Date | null;
  created_at: Date;
}

/** Null when this endpoint already has the event (a fan-out run again). */
export async function insertDelivery(
  tx: Queryable,
  d: {
    tenantId: string;
    endpointId: string;
    eventKey: string;
    eventType: string;
    webhookId: string;
    occurredAt: string;
    data: unknown;
  },
): Promise<number | null> {
  const r = await tx.query<{ id: string }>(
    `INSERT INTO webhook_deliveries (tenant_id, endpoint_id, event_key, event_type, webhook_id, occurred_at, data)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (endpoint_id, event_key) DO NOTHING RETURNING id`,
    [d.tenantId, d.endpointId, d.eventKey, d.eventType, d.webhookId, d.occurredAt, JSON.stringify(d.data)],
  );
  return r.rows[0] ? Number(r.rows[0].id) : null;
}

const row = (r: WebhookDeliveryRow): WebhookDeliveryRow => ({ ...r, id: Number(r.id) });

export async function findDelivery(q: Queryable, id: number): Promise<WebhookDeliveryRow | undefined> {
  const r = await q.query<WebhookDeliveryRow>('SELECT * FROM webhook_deliveries WHERE id = $1', [id]);
  return r.rows[0] && row(r.rows[0]);
}

export async function findEndpointDelivery(
  q: Queryable,
  tenantId: string,
  endpointId: string,
  id: number,
): Promise<WebhookDeliveryRow | undefined> {
  const r = await q.query<WebhookDeliveryRow>(
    'SELECT * FROM webhook_deliveries WHERE tenant_id = $1 AND endpoint_id = $2 AND id = $3',
    [tenantId, endpointId, id],
  );
  return r.rows[0] && row(r.rows[0]);
}

/** An earlier delivery to the same endpoint that is neither delivered nor given up: this one waits. */
export const earlierUnsettled = (q: Queryable, endpointId: string, id: number): Promise<boolean> =>
  rowExists(q, 'SELECT 1 FROM webhook_deliveries WHERE endpoint_id = $1 AND id < $2 AND settled_at IS NULL LIMIT 1', [
    endpointId,
    id,
  ]);

/** One attempt's result. `settle` marks it delivered or given up (the order then moves on). */
export async function recordAttempt(
  q: Queryable,
  id: number,
  a: { status: DeliveryStatus; code: number | null; durationMs: number; error: string | null; settle: boolean },
): Promise<void> {
  await q.query(
    `UPDATE webhook_deliveries SET status = $2, attempts = attempts + 1, last_status_code = $3, last_duration_ms = $4,
       last_error = $5, last_attempt_at = now(), settled_at = CASE WHEN $6 THEN coalesce(settled_at, now()) ELSE settled_at END
     WHERE id = $1`,
    [id, a.status, a.code, a.durationMs, a.error, a.settle],
  );
}

/** Gives up a delivery without an attempt (its endpoint is disabled or gone). */
export async function settleUnsent(q: Queryable, id: number, error: string): Promise<void> {
  await q.query(
    `UPDATE webhook_deliveries SET status = 'failed', last_error = $2, settled_at = coalesce(settled_at, now()) WHERE id = $1`,
    [id, error],
  );
}

/** A replay from the log: pending again (it keeps its place: settled deliveries do not hold others up). */
export async function markReplaying(q: Queryable, id: number): Promise<void> {
  await q.query(`UPDATE webhook_deliveries SET status = 'pending' WHERE id = $1`, [id]);
}

export async function listDeliveries(
  q: Queryable,
  tenantId: string,
  endpointId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: WebhookDeliveryRow[]; total: number }> {
  const r = await q.query<WebhookDeliveryRow>(
    `SELECT * FROM webhook_deliveries WHERE tenant_id = $1 AND endpoint_id = $2 ORDER BY id DESC LIMIT $3 OFFSET $4`,
    [tenantId, endpointId, page.limit, page.offset],
  );
  const n = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM webhook_deliveries WHERE tenant_id = $1 AND endpoint_id = $2',
    [tenantId, endpointId],
  );
  return { rows: r.rows.map(row), total: n.rows[0]?.n ?? 0 };
}

/**
 * Retention: deletes up to `limit` deliveries settled (delivered or given up) before `before`. A
 * delivery still pending is kept whatever its age: later deliveries to its endpoint wait for it.
 */
export async function pruneSettledDeliveries(q: Queryable, before: Date, limit: number): Promise<number> {
  const r = await q.query(
    `DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM webhook_deliveries
       WHERE settled_at < $1 AND status <> 'pending' LIMIT $2)`,
    [before, limit],
  );
  return r.rowCount;
}
