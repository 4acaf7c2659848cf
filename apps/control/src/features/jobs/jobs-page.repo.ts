/**
 * SQL of one page of /jobs: the page's job rows, their windows, notes, checklist ticks and
 * attachments, and the technicians behind the page's ERP persons with their names, in ONE statement
 * (inside withTenant, so row-level security scopes every table it reads). Seven statements were seven
 * round trips of the page's transaction; the rows are the same as jobsOfOrders, detailsOf and
 * techniciansByPerson read, the names the accounts module's own SQL (displayNameSql, not `users` here).
 */
import type { Queryable } from '@platform/db';

import { displayNameSql } from '../accounts/team.repo.js';
import type { JobDetailRows, JobRow } from './jobs.repo.js';

export interface JobPageRows {
  rows: JobRow[];
  details: JobDetailRows;
  technicians: Map<number, { id: string; name: string }>;
}

const PAGE_SQL = `
WITH j AS (SELECT id, erp_order_id, route_order, address_state, kind, quote_id FROM jobs WHERE erp_order_id = ANY($1::int[]))
SELECT
  (SELECT coalesce(json_agg(j), '[]') FROM j) AS rows,
  (SELECT coalesce(json_agg(json_build_object('job_id', w.job_id, 'room', w.room, 'product', w.product,
            'width_in', w.width_in::float8, 'drop_in', w.drop_in::float8, 'mount', w.mount, 'colour', w.colour)
            ORDER BY w.job_id, w.position), '[]')
     FROM job_windows w WHERE w.job_id IN (SELECT id FROM j)) AS windows,
  (SELECT coalesce(json_agg(json_build_object('id', n.id, 'job_id', n.job_id, 'body', n.body,
            'author_id', n.author_id, 'author_name', n.author_name, 'at', n.created_at)
            ORDER BY n.created_at, n.id), '[]')
     FROM job_notes n WHERE n.job_id IN (SELECT id FROM j)) AS notes,
  (SELECT coalesce(json_agg(json_build_object('job_id', c.job_id, 'item_id', c.item_id, 'done', c.done)), '[]')
     FROM job_checklist c WHERE c.job_id IN (SELECT id FROM j)) AS checklist,
  (SELECT coalesce(json_agg(json_build_object('job_id', a.job_id, 'key', a.key, 'kind', a.kind, 'at', a.created_at,
            'measurement_id', a.measurement_id)
            ORDER BY a.created_at, a.key), '[]')
     FROM job_attachments a WHERE a.job_id IN (SELECT id FROM j)) AS attachments,
  (SELECT coalesce(json_agg(json_build_object('p', t.erp_person_id, 'id', t.user_id,
            'name', ${displayNameSql('t.user_id')})), '[]')
     FROM job_technicians t WHERE t.erp_person_id = ANY($2::int[])) AS technicians`;

type Wire<T> = Omit<T, 'at'> & { at: string };

interface PageWire {
  rows: JobRow[];
  windows: JobDetailRows['windows'];
  notes: Wire<JobDetailRows['notes'][number]>[];
  checklist: JobDetailRows['checklist'];
  attachments: Wire<JobDetailRows['attachments'][number]>[];
  technicians: { p: number; id: string; name: string | null }[];
}

/** The platform's rows of a page of ERP orders, the technicians' names included: one statement. */
export async function pageRows(tx: Queryable, erpOrderIds: number[], personIds: number[]): Promise<JobPageRows> {
  const empty = { windows: [], notes: [], checklist: [], attachments: [] };
  if (!erpOrderIds.length) return { rows: [], details: empty, technicians: new Map() };
  // Prepared on PostgreSQL: planning was about half of its time. The plan holds no tenant: row-level
  // security reads app.tenant_id when it runs, and PostgreSQL re-plans for another role.
  const w = (await tx.query<PageWire>(PAGE_SQL, [erpOrderIds, personIds], { name: 'jobs_page_rows' })).rows[0]!;
  // json carries timestamps as text; the row types (and the single job's reads) have Dates.
  const details: JobDetailRows = {
    windows: w.windows,
    notes: w.notes.map((n) => ({ ...n, at: new Date(n.at) })),
    checklist: w.checklist,
    attachments: w.attachments.map((a) => ({ ...a, at: new Date(a.at) })),
  };
  // A technician whose user is gone has no name and is left out, as displayNames leaves them out.
  const technicians = new Map(
    w.technicians.filter((t) => t.name !== null).map((t) => [t.p, { id: t.id, name: t.name! }]),
  );
  return { rows: w.rows, details, technicians };
}
