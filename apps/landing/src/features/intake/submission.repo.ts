/** Accepted submissions (table owned by @platform/submissions) with their outbox rows, and stored idempotent answers. */
import type { Db, Queryable } from '@platform/db';
import { enqueue, type NewOutboxMessage } from '@platform/outbox';
import { insertSubmissionRow, type NewSubmission } from '@platform/submissions';

export { findRecentSubmission, lockFingerprint, type NewSubmission } from '@platform/submissions';

export interface StoredAnswer {
  fingerprint: string;
  status_code: number;
  response: Record<string, unknown>;
}

export async function insertSubmission(tx: Queryable, s: NewSubmission, outbox: NewOutboxMessage): Promise<void> {
  await insertSubmissionRow(tx, s);
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
