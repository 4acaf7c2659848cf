/** SQL of accepted submissions, their outbox rows and stored idempotent answers. */
import type { Db, Queryable } from '@platform/db';
import { enqueue, type NewOutboxMessage } from '@platform/outbox';

export interface NewSubmission {
  id: string;
  tenantId: string;
  kind: 'estimate' | 'helpdesk';
  formSource: string | null;
  formSourceParsed: unknown;
  attribution: Record<string, string>;
  payload: Record<string, unknown>;
  fingerprint: string;
  clientIp: string | null;
  userAgent: string | null;
  gpc: boolean;
}

export interface StoredAnswer {
  fingerprint: string;
  status_code: number;
  response: Record<string, unknown>;
}

/** Serialises concurrent submissions of the same content (double clicks, retries) for this transaction. */
export async function lockFingerprint(tx: Queryable, tenantId: string, fingerprint: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`submission:${tenantId}:${fingerprint}`]);
}

export async function findRecentSubmission(tx: Queryable, tenantId: string, fingerprint: string, windowSeconds: number): Promise<string | undefined> {
  const r = await tx.query<{ id: string }>(
    `SELECT id FROM submissions WHERE tenant_id = $1 AND fingerprint = $2
       AND created_at > now() - ($3::double precision * interval '1 second') ORDER BY created_at LIMIT 1`,
    [tenantId, fingerprint, windowSeconds],
  );
  return r.rows[0]?.id;
}

export async function insertSubmission(tx: Queryable, s: NewSubmission, outbox: NewOutboxMessage): Promise<void> {
  await tx.query(
    `INSERT INTO submissions (id, tenant_id, kind, form_source, form_source_parsed, attribution, payload, fingerprint, client_ip, user_agent, gpc)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [s.id, s.tenantId, s.kind, s.formSource, JSON.stringify(s.formSourceParsed ?? null), JSON.stringify(s.attribution),
      JSON.stringify(s.payload), s.fingerprint, s.clientIp, s.userAgent, s.gpc],
  );
  await enqueue(tx, outbox);
}

export async function findAnswer(db: Queryable, tenantId: string, route: string, key: string): Promise<StoredAnswer | undefined> {
  const r = await db.query<StoredAnswer>(
    'SELECT fingerprint, status_code, response FROM idempotency_keys WHERE tenant_id = $1 AND route = $2 AND key = $3',
    [tenantId, route, key],
  );
  return r.rows[0];
}

/** Returns false when another request stored an answer under this key first. */
export async function storeAnswer(tx: Queryable, tenantId: string, route: string, key: string, a: StoredAnswer): Promise<boolean> {
  const r = await tx.query(
    `INSERT INTO idempotency_keys (tenant_id, route, key, fingerprint, status_code, response) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (tenant_id, route, key) DO NOTHING RETURNING key`,
    [tenantId, route, key, a.fingerprint, a.status_code, JSON.stringify(a.response)],
  );
  return r.rows.length === 1;
}

export type { Db };
