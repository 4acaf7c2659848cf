/** The one owner of `webhook_endpoints`: a tenant's outbound webhook endpoints (SQL only). */
import type { WebhookEventType } from '@platform/contracts';
import { type Queryable, rowExists } from '@platform/db';

export interface WebhookEndpointRow {
  id: string;
  tenant_id: string;
  url: string;
  description: string | null;
  events: WebhookEventType[];
  enabled: boolean;
  disabled_reason: string | null;
  secret_enc: string;
  created_at: Date;
  updated_at: Date;
}

export async function insertEndpoint(
  tx: Queryable,
  e: { id: string; tenantId: string; url: string; description: string | null; events: string[]; secretEnc: string },
): Promise<WebhookEndpointRow> {
  const r = await tx.query<WebhookEndpointRow>(
    `INSERT INTO webhook_endpoints (id, tenant_id, url, description, events, secret_enc)
     VALUES ($1, $2, $3, $4, $5::text[], $6) RETURNING *`,
    [e.id, e.tenantId, e.url, e.description, e.events, e.secretEnc],
  );
  return r.rows[0]!;
}

export async function listEndpoints(tx: Queryable, tenantId: string): Promise<WebhookEndpointRow[]> {
  const r = await tx.query<WebhookEndpointRow>(
    'SELECT * FROM webhook_endpoints WHERE tenant_id = $1 ORDER BY created_at, id',
    [tenantId],
  );
  return r.rows;
}

export async function findEndpoint(
  tx: Queryable,
  tenantId: string,
  id: string,
): Promise<WebhookEndpointRow | undefined> {
  const r = await tx.query<WebhookEndpointRow>('SELECT * FROM webhook_endpoints WHERE tenant_id = $1 AND id = $2', [
    tenantId,
    id,
  ]);
  return r.rows[0];
}

/** The enabled endpoints of a tenant subscribed to `type` (the fan-out of an event). */
export async function subscribedEndpoints(
  tx: Queryable,
  tenantId: string,
  type: string,
): Promise<WebhookEndpointRow[]> {
  const r = await tx.query<WebhookEndpointRow>(
    'SELECT * FROM webhook_endpoints WHERE tenant_id = $1 AND enabled AND $2 = ANY(events) ORDER BY created_at, id',
    [tenantId, type],
  );
  return r.rows;
}

/** Whether any enabled endpoint of the tenant takes `type` (producers skip events nobody takes). */
export const hasSubscribers = (tx: Queryable, tenantId: string, type: string): Promise<boolean> =>
  rowExists(tx, 'SELECT 1 FROM webhook_endpoints WHERE tenant_id = $1 AND enabled AND $2 = ANY(events) LIMIT 1', [
    tenantId,
    type,
  ]);

export async function updateEndpoint(
  tx: Queryable,
  tenantId: string,
  id: string,
  c: {
    url?: string;
    description?: string | null;
    events?: string[];
    enabled?: boolean;
    disabledReason?: string | null;
  },
): Promise<WebhookEndpointRow | undefined> {
  const r = await tx.query<WebhookEndpointRow>(
    `UPDATE webhook_endpoints SET
       url = coalesce($3, url),
       description = CASE WHEN $4::boolean THEN $5 ELSE description END,
       events = coalesce($6::text[], events),
       enabled = coalesce($7, enabled),
       disabled_reason = CASE WHEN $7 IS NULL THEN disabled_reason WHEN $7 THEN NULL ELSE $8 END,
       updated_at = now()
     WHERE tenant_id = $1 AND id = $2 RETURNING *`,
    [
      tenantId,
      id,
      c.url ?? null,
      c.description !== undefined,
      c.description ?? null,
      c.events ?? null,
      c.enabled ?? null,
      c.disabledReason ?? null,
    ],
  );
  return r.rows[0];
}

export async function setEndpointSecret(
  tx: Queryable,
  tenantId: string,
  id: string,
  secretEnc: string,
): Promise<boolean> {
  const r = await tx.query(
    'UPDATE webhook_endpoints SET secret_enc = $3, updated_at = now() WHERE tenant_id = $1 AND id = $2',
    [tenantId, id, secretEnc],
  );
  return r.rowCount === 1;
}

export async function deleteEndpoint(tx: Queryable, tenantId: string, id: string): Promise<boolean> {
  const r = await tx.query('DELETE FROM webhook_endpoints WHERE tenant_id = $1 AND id = $2', [tenantId, id]);
  return r.rowCount === 1;
}
