/** SQL of recurring jobs (tables of migration 0300). Inside withTenant, except `activeSeries` (the generator's scan). */
import type { SeriesStatus } from '@platform/contracts/job-series.js';
import type { Db, Queryable } from '@platform/db';

export interface SeriesRow {
  id: string;
  tenant_id: string;
  source_job_id: string;
  rule: string;
  title: string;
  horizon_months: number;
  starts_at: Date;
  duration_minutes: number;
  status: SeriesStatus;
  rule_since: Date;
  waiting_reason: 'job_limit' | 'source_missing' | null;
  waiting_date: string | null;
  created_by: string;
}

const COLS = `id, tenant_id, source_job_id, rule, title, horizon_months, starts_at, duration_minutes, status,
  rule_since, waiting_reason, to_char(waiting_date, 'YYYY-MM-DD') AS waiting_date, created_by`;

/** A new series; undefined when the job has one already. */
export async function insertSeries(
  tx: Queryable,
  s: Pick<
    SeriesRow,
    | 'tenant_id'
    | 'source_job_id'
    | 'rule'
    | 'title'
    | 'horizon_months'
    | 'starts_at'
    | 'duration_minutes'
    | 'created_by'
  > & { now: Date },
): Promise<SeriesRow | undefined> {
  const r = await tx.query<SeriesRow>(
    `INSERT INTO job_series (tenant_id, source_job_id, rule, title, horizon_months, starts_at, duration_minutes,
       created_by, rule_since, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $9) ON CONFLICT (tenant_id, source_job_id) DO NOTHING
     RETURNING ${COLS}`,
    [
      s.tenant_id,
      s.source_job_id,
      s.rule,
      s.title,
      s.horizon_months,
      s.starts_at,
      s.duration_minutes,
      s.created_by,
      s.now,
    ],
  );
  return r.rows[0];
}

/** The series made from this job, or the one this job is an occurrence of. */
export async function seriesOfJob(tx: Queryable, jobId: string): Promise<SeriesRow | undefined> {
  const r = await tx.query<SeriesRow>(
    `SELECT ${COLS} FROM job_series WHERE source_job_id = $1::uuid
     OR id = (SELECT series_id FROM job_series_occurrences WHERE job_id = $1::uuid)`,
    [jobId],
  );
  return r.rows[0];
}

export async function seriesById(tx: Queryable, id: string): Promise<SeriesRow | undefined> {
  return (await tx.query<SeriesRow>(`SELECT ${COLS} FROM job_series WHERE id = $1::uuid`, [id])).rows[0];
}

export async function updateSeries(
  tx: Queryable,
  id: string,
  c: { rule?: string; title?: string; horizon_months?: number; status?: SeriesStatus; rule_since?: Date; now: Date },
): Promise<SeriesRow> {
  const r = await tx.query<SeriesRow>(
    `UPDATE job_series SET rule = coalesce($2, rule), title = coalesce($3, title),
       horizon_months = coalesce($4, horizon_months), status = coalesce($5, status),
       rule_since = coalesce($6, rule_since), updated_at = $7,
       waiting_reason = CASE WHEN $5 IS NULL THEN waiting_reason END,
       waiting_date = CASE WHEN $5 IS NULL THEN waiting_date END
     WHERE id = $1 RETURNING ${COLS}`,
    [id, c.rule ?? null, c.title ?? null, c.horizon_months ?? null, c.status ?? null, c.rule_since ?? null, c.now],
  );
  return r.rows[0]!;
}

/** Why the next occurrence waits (null: nothing waits). */
export async function setWaiting(
  tx: Queryable,
  id: string,
  w: { reason: SeriesRow['waiting_reason']; date: string | null },
): Promise<void> {
  await tx.query('UPDATE job_series SET waiting_reason = $2, waiting_date = $3::date WHERE id = $1', [
    id,
    w.reason,
    w.date,
  ]);
}

export async function occurrencesOf(tx: Queryable, seriesId: string): Promise<{ date: string; job_id: string }[]> {
  const r = await tx.query<{ date: string; job_id: string }>(
    `SELECT to_char(occurrence_date, 'YYYY-MM-DD') AS date, job_id FROM job_series_occurrences
     WHERE series_id = $1 ORDER BY occurrence_date`,
    [seriesId],
  );
  return r.rows;
}

/** Records a made occurrence once (a second pass that made the same job adds nothing). */
export async function insertOccurrence(
  tx: Queryable,
  o: { tenantId: string; seriesId: string; date: string; jobId: string },
): Promise<void> {
  await tx.query(
    `INSERT INTO job_series_occurrences (tenant_id, series_id, occurrence_date, job_id) VALUES ($1, $2, $3::date, $4)
     ON CONFLICT DO NOTHING`,
    [o.tenantId, o.seriesId, o.date, o.jobId],
  );
}

/** Across tenants (outside row-level security, as the worker's scans): the active series to generate. */
export async function activeSeries(db: Db): Promise<{ id: string; tenant_id: string }[]> {
  const r = await db.query<{ id: string; tenant_id: string }>(
    "SELECT id, tenant_id FROM job_series WHERE status = 'active' ORDER BY tenant_id, id",
  );
  return r.rows;
}
