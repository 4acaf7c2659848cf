/** SQL of a measure job's windows (table job_measurements, migration 0390). Always inside withTenant. */
import type { MeasurementInput } from '@platform/contracts/measurement.js';
import type { Queryable } from '@platform/db';

export interface MeasurementRow extends MeasurementInput {
  id: string;
  job_id: string;
  position: number;
  removed: boolean;
  updated_at: Date;
}

const COLS = `id, job_id, position, room, product_code, width_in::float8 AS width_in, drop_in::float8 AS drop_in,
  mount, colour, options, notes, removed, updated_at`;

/** The job's windows in the order they were first recorded (removed ones left out). */
export async function measurementsOf(tx: Queryable, jobId: string): Promise<MeasurementRow[]> {
  const r = await tx.query<MeasurementRow>(
    `SELECT ${COLS} FROM job_measurements WHERE job_id = $1 AND NOT removed ORDER BY position, id`,
    [jobId],
  );
  return r.rows;
}

/** One window of this job, removed or not (undefined: none, or another job's). */
export async function measurementOf(tx: Queryable, jobId: string, id: string): Promise<MeasurementRow | undefined> {
  const r = await tx.query<MeasurementRow>(`SELECT ${COLS} FROM job_measurements WHERE id = $1 AND job_id = $2`, [
    id,
    jobId,
  ]);
  return r.rows[0];
}

/** Any job's window with this id (a phone's id reused on another job is refused, not moved). */
export async function measurementJob(tx: Queryable, id: string): Promise<string | undefined> {
  const r = await tx.query<{ job_id: string }>('SELECT job_id FROM job_measurements WHERE id = $1', [id]);
  return r.rows[0]?.job_id;
}

/**
 * Records the window, or replaces what an earlier send recorded under its id. A removed window stays
 * removed: an edit that arrives after its removal (two phones, a late resend) does not revive it.
 */
export async function upsertMeasurement(
  tx: Queryable,
  m: MeasurementInput & { id: string; tenantId: string; jobId: string; by: string },
): Promise<void> {
  await tx.query(
    `INSERT INTO job_measurements (id, tenant_id, job_id, position, room, product_code, width_in, drop_in, mount,
       colour, options, notes, updated_by)
     VALUES ($1, $2, $3, (SELECT coalesce(max(position), 0) + 1 FROM job_measurements WHERE job_id = $3),
       $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (id) DO UPDATE SET room = EXCLUDED.room, product_code = EXCLUDED.product_code,
       width_in = EXCLUDED.width_in, drop_in = EXCLUDED.drop_in, mount = EXCLUDED.mount, colour = EXCLUDED.colour,
       options = EXCLUDED.options, notes = EXCLUDED.notes, updated_by = EXCLUDED.updated_by, updated_at = now()
     WHERE NOT job_measurements.removed`,
    [
      m.id,
      m.tenantId,
      m.jobId,
      m.room,
      m.product_code,
      m.width_in,
      m.drop_in,
      m.mount,
      m.colour,
      JSON.stringify(m.options),
      m.notes,
      m.by,
    ],
  );
}

export async function removeMeasurement(tx: Queryable, jobId: string, id: string, by: string): Promise<void> {
  await tx.query(
    'UPDATE job_measurements SET removed = true, updated_by = $3, updated_at = now() WHERE id = $1 AND job_id = $2',
    [id, jobId, by],
  );
}
