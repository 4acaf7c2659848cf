/**
 * The one owner of `idempotency_keys`: the stored answer of an accepted request under its
 * Idempotency-Key (the intake hosts, portal acceptance), and the pruning of old keys (the worker's retention).
 */
import type { Queryable } from '@platform/db';
import type { WriteOutcome } from '@platform/kernel';

import type { StoredAnswerRow } from './idempotency.js';

export type StoredAnswer = StoredAnswerRow;

export async function findAnswer(
  db: Queryable,
  tenantId: string,
  route: string,
  key: string,
): Promise<StoredAnswer | undefined> {
  const r = await db.query<StoredAnswer>(
    'SELECT fingerprint, outcome, status_code, response FROM idempotency_keys WHERE tenant_id = $1 AND route = $2 AND key = $3',
    [tenantId, route, key],
  );
  return r.rows[0];
}

/** Returns false when another request stored an answer under this key first. */
export async function storeAnswer(
  tx: Queryable,
  tenantId: string,
  route: string,
  key: string,
  a: { fingerprint: string; outcome: WriteOutcome; response: unknown },
): Promise<boolean> {
  const r = await tx.query(
    `INSERT INTO idempotency_keys (tenant_id, route, key, fingerprint, outcome, response) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (tenant_id, route, key) DO NOTHING RETURNING key`,
    [tenantId, route, key, a.fingerprint, a.outcome, JSON.stringify(a.response)],
  );
  return r.rows.length === 1;
}

/** Deletes up to `limit` keys stored before `before` (short locks); returns how many went. */
export async function pruneIdempotencyKeys(db: Queryable, before: Date, limit: number): Promise<number> {
  return (
    await db.query(
      'DELETE FROM idempotency_keys WHERE ctid IN (SELECT ctid FROM idempotency_keys WHERE created_at < $1 LIMIT $2)',
      [before, limit],
    )
  ).rowCount;
}
