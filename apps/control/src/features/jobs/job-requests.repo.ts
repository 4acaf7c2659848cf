/** SQL of `job_requests`: the Idempotency-Key records of mutating /jobs calls (migration 0130). */
import type { Queryable } from '@platform/db';
import type { WriteOutcome } from '@platform/kernel';

export interface JobRequestRow {
  fingerprint: string;
  state: 'pending' | 'done';
  marker: string;
  base_version: string | null;
  lease_live: boolean;
  /** The stored answer's outcome; rows stored before migration 0210 have a status_code instead. */
  outcome: string | null;
  status_code: number | null;
  response: unknown;
}

export async function lockRequest(tx: Queryable, key: string): Promise<JobRequestRow | undefined> {
  const r = await tx.query<JobRequestRow>(
    `SELECT fingerprint, state, marker, base_version, lease_until > now() AS lease_live, outcome, status_code, response
     FROM job_requests WHERE key = $1 FOR UPDATE`,
    [key],
  );
  return r.rows[0];
}

/** Records the intent; false when another request recorded this key first (it will be retried). */
export async function insertIntent(
  tx: Queryable,
  r: {
    tenantId: string;
    key: string;
    fingerprint: string;
    marker: string;
    baseVersion: string | null;
    leaseSeconds: number;
  },
): Promise<boolean> {
  const q = await tx.query(
    `INSERT INTO job_requests (tenant_id, key, fingerprint, state, marker, base_version, lease_until)
     VALUES ($1, $2, $3, 'pending', $4, $5, now() + make_interval(secs => $6)) ON CONFLICT DO NOTHING RETURNING key`,
    [r.tenantId, r.key, r.fingerprint, r.marker, r.baseVersion, r.leaseSeconds],
  );
  return q.rows.length === 1;
}

export async function renewLease(tx: Queryable, key: string, leaseSeconds: number): Promise<void> {
  await tx.query(`UPDATE job_requests SET lease_until = now() + make_interval(secs => $2) WHERE key = $1`, [
    key,
    leaseSeconds,
  ]);
}

/** After a failure that may have reached the ERP: the next request with the key may take over at once. */
export async function releaseLease(tx: Queryable, key: string): Promise<void> {
  await tx.query(`UPDATE job_requests SET lease_until = '-infinity' WHERE key = $1 AND state = 'pending'`, [key]);
}

/** Nothing was applied (refused before the ERP changed): the key is free again. */
export async function forgetIntent(tx: Queryable, key: string): Promise<void> {
  await tx.query(`DELETE FROM job_requests WHERE key = $1 AND state = 'pending'`, [key]);
}

export async function storeAnswer(tx: Queryable, key: string, outcome: WriteOutcome, response: unknown): Promise<void> {
  await tx.query(`UPDATE job_requests SET state = 'done', outcome = $2, response = $3 WHERE key = $1`, [
    key,
    outcome,
    JSON.stringify(response),
  ]);
}
