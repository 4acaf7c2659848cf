/** SQL of the customers' appointment links (table appointment_links, migration 0510). Only token hashes are stored. */
import type { Queryable } from '@platform/db';

export interface AppointmentLinkRow {
  id: string;
  tenant_id: string;
  job_id: string;
  token_hash: string;
  expires_at: Date;
}

const COLUMNS = 'id, tenant_id, job_id, token_hash, expires_at';

/** The job's live link (not revoked, not expired at `now`), locked: one issuer at a time per job. */
export async function liveLinkOfJob(
  q: Queryable,
  tenantId: string,
  jobId: string,
  now: Date,
): Promise<AppointmentLinkRow | undefined> {
  const r = await q.query<AppointmentLinkRow>(
    `SELECT ${COLUMNS} FROM appointment_links
      WHERE tenant_id = $1 AND job_id = $2 AND revoked_at IS NULL AND expires_at > $3
      ORDER BY created_at DESC LIMIT 1 FOR UPDATE`,
    [tenantId, jobId, now],
  );
  return r.rows[0];
}

export async function insertLink(
  q: Queryable,
  l: { id: string; tenantId: string; jobId: string; hash: string; expiresAt: Date },
): Promise<void> {
  await q.query(
    `INSERT INTO appointment_links (id, tenant_id, job_id, token_hash, expires_at) VALUES ($1, $2, $3, $4, $5)`,
    [l.id, l.tenantId, l.jobId, l.hash, l.expiresAt],
  );
}

export async function setExpiry(q: Queryable, id: string, expiresAt: Date): Promise<void> {
  await q.query('UPDATE appointment_links SET expires_at = $2 WHERE id = $1', [id, expiresAt]);
}

export async function revokeForJob(q: Queryable, tenantId: string, jobId: string, now: Date): Promise<number> {
  const r = await q.query(
    'UPDATE appointment_links SET revoked_at = $3 WHERE tenant_id = $1 AND job_id = $2 AND revoked_at IS NULL RETURNING id',
    [tenantId, jobId, now],
  );
  return r.rows.length;
}

/** The live link with this hash, as the tenant's scope sees it (RLS hides other tenants' links). */
export async function liveLinkByHash(q: Queryable, hash: string, now: Date): Promise<AppointmentLinkRow | undefined> {
  const r = await q.query<AppointmentLinkRow>(
    `SELECT ${COLUMNS} FROM appointment_links WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > $2`,
    [hash, now],
  );
  return r.rows[0];
}
