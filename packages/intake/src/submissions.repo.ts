/**
 * The one owner of the `submissions` table: the landing host records accepted submissions here and
 * the worker records where delivery put them, both through these functions, so neither app runs
 * SQL on a table of the other.
 */
import type { Queryable } from '@platform/db';

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

/** Serialises concurrent submissions of the same content (double clicks, retries) for this transaction. */
export async function lockFingerprint(tx: Queryable, tenantId: string, fingerprint: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`submission:${tenantId}:${fingerprint}`]);
}

export async function findRecentSubmission(
  tx: Queryable,
  tenantId: string,
  fingerprint: string,
  windowSeconds: number,
): Promise<string | undefined> {
  const r = await tx.query<{ id: string }>(
    `SELECT id FROM submissions WHERE tenant_id = $1 AND fingerprint = $2
       AND created_at > now() - ($3::double precision * interval '1 second') ORDER BY created_at LIMIT 1`,
    [tenantId, fingerprint, windowSeconds],
  );
  return r.rows[0]?.id;
}

export async function insertSubmissionRow(tx: Queryable, s: NewSubmission): Promise<void> {
  await tx.query(
    `INSERT INTO submissions (id, tenant_id, kind, form_source, form_source_parsed, attribution, payload, fingerprint, client_ip, user_agent, gpc)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
      s.id,
      s.tenantId,
      s.kind,
      s.formSource,
      JSON.stringify(s.formSourceParsed ?? null),
      JSON.stringify(s.attribution),
      JSON.stringify(s.payload),
      s.fingerprint,
      s.clientIp,
      s.userAgent,
      s.gpc,
    ],
  );
}

/** Where delivery put the submission in the ERP; the first delivery time is kept on redelivery. */
export async function markDelivered(
  db: Queryable,
  submissionId: string,
  erpModel: string,
  erpId: number,
): Promise<void> {
  await db.query(
    'UPDATE submissions SET erp_model = $2, erp_id = $3, delivered_at = coalesce(delivered_at, now()) WHERE id = $1',
    [submissionId, erpModel, erpId],
  );
}
