/** SQL of /jobs (tables of migration 0130). Always inside withTenant: row-level security scopes every row. */
import type { Queryable } from '@platform/db';

import { displayNames } from '../accounts/team.repo.js';
import type { AttachmentKind, JobKind, JobWindow } from './jobs.types.js';

export interface JobRow {
  id: string;
  erp_order_id: number;
  route_order: number;
  address_state: string | null;
  kind: JobKind;
  quote_id: string | null;
}

const JOB_COLS = 'id, erp_order_id, route_order, address_state, kind, quote_id';

/** Registers an ERP order as a job; an order already registered keeps its job id. */
export async function insertJob(
  tx: Queryable,
  j: { tenantId: string; erpOrderId: number; addressState: string | null; routeOrder: number; kind?: JobKind },
): Promise<{ id: string; created: boolean }> {
  const r = await tx.query<{ id: string; created: boolean }>(
    `INSERT INTO jobs (tenant_id, erp_order_id, address_state, route_order, kind) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (tenant_id, erp_order_id) DO UPDATE SET erp_order_id = EXCLUDED.erp_order_id
     RETURNING id, (xmax = 0) AS created`,
    [j.tenantId, j.erpOrderId, j.addressState, j.routeOrder, j.kind ?? 'install'],
  );
  return r.rows[0]!;
}

export async function jobById(tx: Queryable, id: string): Promise<JobRow | undefined> {
  return (await tx.query<JobRow>(`SELECT ${JOB_COLS} FROM jobs WHERE id = $1::uuid`, [id])).rows[0];
}

/** The tenant's jobs of these ERP orders (an order that is not one of its jobs has no row). */
export async function jobsOfOrders(tx: Queryable, erpOrderIds: number[]): Promise<JobRow[]> {
  if (!erpOrderIds.length) return [];
  const r = await tx.query<JobRow>(`SELECT ${JOB_COLS} FROM jobs WHERE erp_order_id = ANY($1::int[])`, [erpOrderIds]);
  return r.rows;
}

/** The ERP orders of the tenant's jobs of these kinds (the list's `kind` filter hands them to the ERP's domain). */
export async function ordersOfKinds(tx: Queryable, kinds: JobKind[]): Promise<number[]> {
  const r = await tx.query<{ o: number }>('SELECT erp_order_id AS o FROM jobs WHERE kind = ANY($1::text[])', [kinds]);
  return r.rows.map((x) => x.o);
}

/** Links a measure job to the draft quote its windows became. */
export async function setQuote(tx: Queryable, id: string, quoteId: string): Promise<void> {
  await tx.query('UPDATE jobs SET quote_id = $2 WHERE id = $1', [id, quoteId]);
}

export async function setRouteOrder(tx: Queryable, id: string, routeOrder: number): Promise<void> {
  await tx.query('UPDATE jobs SET route_order = $2 WHERE id = $1', [id, routeOrder]);
}

export async function insertWindows(tx: Queryable, tenantId: string, jobId: string, ws: JobWindow[]): Promise<void> {
  for (const [i, w] of ws.entries())
    await tx.query(
      `INSERT INTO job_windows (tenant_id, job_id, position, room, product, width_in, drop_in, mount, colour)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING`,
      [tenantId, jobId, i + 1, w.room, w.product, w.width_in, w.drop_in, w.mount, w.colour],
    );
}

export interface JobDetailRows {
  windows: (JobWindow & { job_id: string })[];
  notes: { id: string; job_id: string; body: string; author_id: string; author_name: string; at: Date }[];
  checklist: { job_id: string; item_id: string; done: boolean }[];
  attachments: { job_id: string; key: string; kind: AttachmentKind; at: Date; measurement_id: string | null }[];
}

export async function detailsOf(tx: Queryable, jobIds: string[]): Promise<JobDetailRows> {
  const ids = [jobIds];
  const [w, n, c, a] = [
    await tx.query<JobDetailRows['windows'][number]>(
      `SELECT job_id, room, product, width_in::float8 AS width_in, drop_in::float8 AS drop_in, mount, colour
       FROM job_windows WHERE job_id = ANY($1::uuid[]) ORDER BY job_id, position`,
      ids,
    ),
    await tx.query<JobDetailRows['notes'][number]>(
      `SELECT id, job_id, body, author_id, author_name, created_at AS at FROM job_notes
       WHERE job_id = ANY($1::uuid[]) ORDER BY created_at, id`,
      ids,
    ),
    await tx.query<JobDetailRows['checklist'][number]>(
      'SELECT job_id, item_id, done FROM job_checklist WHERE job_id = ANY($1::uuid[])',
      ids,
    ),
    await tx.query<JobDetailRows['attachments'][number]>(
      `SELECT job_id, key, kind, created_at AS at, measurement_id FROM job_attachments
       WHERE job_id = ANY($1::uuid[]) ORDER BY created_at, key`,
      ids,
    ),
  ];
  return { windows: w.rows, notes: n.rows, checklist: c.rows, attachments: a.rows };
}

export async function insertNote(
  tx: Queryable,
  n: { id: string; tenantId: string; jobId: string; body: string; authorId: string; authorName: string },
): Promise<void> {
  await tx.query(
    `INSERT INTO job_notes (id, tenant_id, job_id, body, author_id, author_name) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (id) DO NOTHING`,
    [n.id, n.tenantId, n.jobId, n.body, n.authorId, n.authorName],
  );
}

export async function setChecklistItem(
  tx: Queryable,
  c: { tenantId: string; jobId: string; itemId: string; done: boolean; by: string },
): Promise<void> {
  await tx.query(
    `INSERT INTO job_checklist (tenant_id, job_id, item_id, done, updated_by) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (tenant_id, job_id, item_id) DO UPDATE SET done = EXCLUDED.done, updated_by = EXCLUDED.updated_by, updated_at = now()`,
    [c.tenantId, c.jobId, c.itemId, c.done, c.by],
  );
}

/** Registers an uploaded object; false when the key was registered already. */
export async function insertAttachment(
  tx: Queryable,
  a: {
    tenantId: string;
    jobId: string;
    key: string;
    kind: AttachmentKind;
    bytes: number;
    by: string;
    measurementId?: string | undefined;
  },
): Promise<boolean> {
  const r = await tx.query(
    `INSERT INTO job_attachments (tenant_id, job_id, key, kind, bytes, created_by, measurement_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (tenant_id, key) DO NOTHING RETURNING key`,
    [a.tenantId, a.jobId, a.key, a.kind, a.bytes, a.by, a.measurementId ?? null],
  );
  return r.rows.length === 1;
}

export async function technicianPerson(tx: Queryable, userId: string): Promise<number | undefined> {
  const r = await tx.query<{ p: number }>('SELECT erp_person_id AS p FROM job_technicians WHERE user_id = $1', [
    userId,
  ]);
  return r.rows[0]?.p;
}

/** Platform technicians (id, display name) behind these ERP persons (names: the accounts module's). */
export async function techniciansByPerson(
  tx: Queryable,
  personIds: number[],
): Promise<Map<number, { id: string; name: string }>> {
  const r = await tx.query<{ p: number; id: string }>(
    'SELECT erp_person_id AS p, user_id AS id FROM job_technicians WHERE erp_person_id = ANY($1::int[])',
    [personIds],
  );
  const names = await displayNames(
    tx,
    r.rows.map((x) => x.id),
  );
  return new Map(r.rows.filter((x) => names.has(x.id)).map((x) => [x.p, { id: x.id, name: names.get(x.id)! }]));
}

export async function insertTechnician(
  tx: Queryable,
  tenantId: string,
  userId: string,
  personId: number,
): Promise<void> {
  await tx.query(
    `INSERT INTO job_technicians (tenant_id, user_id, erp_person_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
    [tenantId, userId, personId],
  );
}

/** A member of the signed-in tenant (row-level security hides everyone else): the accounts module's read. */
export { memberInScope as memberOf } from '../accounts/team.repo.js';
