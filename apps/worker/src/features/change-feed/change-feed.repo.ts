/** SQL of the change feed: cursors and the last seen value of each watched record. */
import type { Queryable } from '@platform/db';

export interface Cursor {
  last_write_date: string;
  last_id: number;
  baseline_done: boolean;
}

export interface Key {
  tenantId: string;
  erpDb: string;
  model: string;
}

export async function lockFeed(tx: Queryable, k: Key): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`change-feed:${k.tenantId}:${k.erpDb}:${k.model}`]);
}

export async function readCursor(db: Queryable, k: Key): Promise<Cursor | undefined> {
  const r = await db.query<Cursor>(
    'SELECT last_write_date, last_id, baseline_done FROM erp_change_cursors WHERE tenant_id = $1 AND erp_db = $2 AND model = $3',
    [k.tenantId, k.erpDb, k.model],
  );
  return r.rows[0];
}

export async function saveCursor(tx: Queryable, k: Key, c: Cursor): Promise<void> {
  await tx.query(
    `INSERT INTO erp_change_cursors (tenant_id, erp_db, model, last_write_date, last_id, baseline_done) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (tenant_id, erp_db, model) DO UPDATE SET last_write_date = EXCLUDED.last_write_date, last_id = EXCLUDED.last_id,
       baseline_done = EXCLUDED.baseline_done, updated_at = now()`,
    [k.tenantId, k.erpDb, k.model, c.last_write_date, c.last_id, c.baseline_done],
  );
}

export interface SeenValue {
  value: string | null;
  label: string | null;
}

export async function readStates(tx: Queryable, k: Key, ids: number[]): Promise<Map<number, SeenValue>> {
  const r = await tx.query<{ record_id: number } & SeenValue>(
    'SELECT record_id, value, label FROM erp_record_states WHERE tenant_id = $1 AND erp_db = $2 AND model = $3 AND record_id = ANY($4::integer[])',
    [k.tenantId, k.erpDb, k.model, ids],
  );
  return new Map(r.rows.map((x) => [x.record_id, { value: x.value, label: x.label }]));
}

export async function saveState(
  tx: Queryable,
  k: Key,
  recordId: number,
  seen: SeenValue,
  writeDate: string,
): Promise<void> {
  await tx.query(
    `INSERT INTO erp_record_states (tenant_id, erp_db, model, record_id, value, label, write_date) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (tenant_id, erp_db, model, record_id) DO UPDATE SET value = EXCLUDED.value, label = EXCLUDED.label, write_date = EXCLUDED.write_date`,
    [k.tenantId, k.erpDb, k.model, recordId, seen.value, seen.label, writeDate],
  );
}
