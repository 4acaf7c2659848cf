/**
 * Reading jobs: the list (by day, range, technician, stage; technicians in route order) and one job,
 * each built from the tenant's ERP and the platform's rows. A technician sees only the jobs assigned
 * to them; anything else, like another tenant's job, is not found.
 */
import { type Db, type Queryable, withTenant } from '@platform/db';
import type { Domain, Erp, ErpRecord } from '@platform/erp';
import { AppError } from '@platform/kernel';

import type { Principal } from '../auth/principal.js';
import type { TenantErps } from '../tenants/tenant-erps.js';
import { readOrders, searchOrders, shape, toErpTime } from './erp/fsm-orders.js';
import { fsmStages } from './erp/fsm-stages.js';
import { jobView } from './job-view.js';
import { allJobs, detailsOf, jobById, type JobRow, technicianPerson, techniciansByPerson } from './jobs.repo.js';
import type { ErpJob, Job, StageKey } from './jobs.types.js';

export interface JobListFilter {
  date?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  technician_id?: string | undefined;
  stage?: StageKey | undefined;
  page: number;
  page_size: number;
}

export interface LoadedJob {
  tenantId: string;
  erp: Erp;
  row: JobRow;
  order: ErpJob;
}

/** A list matching more orders than this asks for a narrower filter (one ERP call sorts them all). */
export const MAX_LIST_MATCHES = 2000;
const DAY = 86_400_000;
const isDate = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s);

export class JobsReader {
  constructor(private readonly deps: { db: Db; erps: TenantErps }) {}

  /** SEAM for search and customers: the platform job of each of these ERP orders (orders made elsewhere are absent). */
  async idsForOrders(tenantId: string, orderIds: number[]): Promise<Map<number, string>> {
    const wanted = new Set(orderIds);
    const rows = await withTenant(this.deps.db, tenantId, (tx) => allJobs(tx));
    return new Map(rows.filter((r) => wanted.has(r.erp_order_id)).map((r) => [r.erp_order_id, r.id]));
  }

  async list(
    p: Principal,
    f: JobListFilter,
  ): Promise<{ items: Job[]; page: number; page_size: number; total: number }> {
    const erp = await this.deps.erps.forTenant(p.tenantId);
    const scope = await withTenant(this.deps.db, p.tenantId, async (tx) => ({
      jobs: await allJobs(tx),
      person: p.role === 'technician' ? ((await technicianPerson(tx, p.userId)) ?? 0) : undefined,
      wanted: f.technician_id ? ((await technicianPerson(tx, f.technician_id)) ?? 0) : undefined,
    }));
    const empty = { items: [], page: f.page, page_size: f.page_size, total: 0 };
    if (!scope.jobs.length || scope.person === 0 || scope.wanted === 0) return empty;
    const rows = new Map(scope.jobs.map((r) => [r.erp_order_id, r]));
    const domain: Domain = [['id', 'in', [...rows.keys()]]];
    if (scope.person !== undefined) domain.push(['person_id', '=', scope.person]);
    if (scope.wanted !== undefined) domain.push(['person_id', '=', scope.wanted]);
    if (f.stage) domain.push(['stage_id', 'in', (await fsmStages(erp)).idsOf(f.stage)]);
    const from = f.date ?? f.from;
    const to = f.date ?? f.to;
    if (from) domain.push(['scheduled_date_start', '>=', toErpTime(from)]);
    if (to)
      domain.push([
        'scheduled_date_start',
        '<',
        toErpTime(isDate(to) ? new Date(Date.parse(to) + DAY).toISOString() : to),
      ]);
    const found = await searchOrders(erp, domain, MAX_LIST_MATCHES + 1);
    if (found.length > MAX_LIST_MATCHES)
      throw new AppError('VALIDATION_FAILED', `More than ${MAX_LIST_MATCHES} jobs match: narrow the dates.`, {
        fieldIssues: [
          { field: 'from', rule: 'range_too_wide', message: `Give a date range of at most ${MAX_LIST_MATCHES} jobs.` },
        ],
      });
    const sorted = routeOrder(found, rows);
    const page = sorted.slice((f.page - 1) * f.page_size, f.page * f.page_size);
    // The page's customers (ERP) and its platform rows at once; no ERP call inside a platform
    // transaction (the embedded ERP may share the database, and PGlite has one connection).
    const people = page.map((o) => (Array.isArray(o.person_id) ? Number(o.person_id[0]) : null));
    const [orders, extra] = await Promise.all([
      shape(erp, page),
      withTenant(this.deps.db, p.tenantId, async (tx) => ({
        details: await detailsOf(
          tx,
          page.map((o) => rows.get(o.id)!.id),
        ),
        technicians: await techniciansByPerson(
          tx,
          people.filter((x): x is number => x !== null),
        ),
      })),
    ]);
    const items = orders.map((o) => jobView(rows.get(o.erpId)!, o, extra.details, extra.technicians));
    return { items, page: f.page, page_size: f.page_size, total: sorted.length };
  }

  async get(p: Principal, id: string): Promise<Job> {
    const j = await this.load(p, id);
    return withTenant(this.deps.db, p.tenantId, (tx) => this.view(tx, j));
  }

  /** The job and its ERP order, or NOT_FOUND (another tenant's, another technician's, gone). */
  async load(p: Principal, id: string): Promise<LoadedJob> {
    const notFound = () => new AppError('NOT_FOUND', 'No such job.');
    const { row, person } = await withTenant(this.deps.db, p.tenantId, async (tx) => ({
      row: await jobById(tx, id),
      person: p.role === 'technician' ? await technicianPerson(tx, p.userId) : undefined,
    }));
    if (!row) throw notFound();
    const erp = await this.deps.erps.forTenant(p.tenantId);
    const [order] = await readOrders(erp, [row.erp_order_id]);
    if (!order) throw notFound();
    if (p.role === 'technician' && (person === undefined || order.personId !== person)) throw notFound();
    return { tenantId: p.tenantId, erp, row, order };
  }

  erpOf(p: Principal): Promise<Erp> {
    return this.deps.erps.forTenant(p.tenantId);
  }

  inTenant<T>(p: Principal, fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return withTenant(this.deps.db, p.tenantId, fn);
  }

  /** If-Match: the version the client last saw must be the job's version now, else JOB_CONFLICT with `current`. */
  async assertVersion(j: LoadedJob, ifMatch: string): Promise<void> {
    const seen = ifMatch.replace(/^W\//, '').replace(/^"(.*)"$/, '$1');
    if (seen === j.order.version) return;
    const current = await withTenant(this.deps.db, j.tenantId, (tx) => this.view(tx, j));
    throw new AppError('JOB_CONFLICT', 'The job was changed meanwhile; nothing was applied.', {
      details: { current },
    });
  }

  view(tx: Queryable, j: { row: JobRow; order: ErpJob }): Promise<Job> {
    return this.views(tx, [j]).then((v) => v[0]!);
  }

  async views(tx: Queryable, js: { row: JobRow; order: ErpJob }[]): Promise<Job[]> {
    if (!js.length) return [];
    const details = await detailsOf(
      tx,
      js.map((j) => j.row.id),
    );
    const people = js.map((j) => j.order.personId).filter((x): x is number => x !== null);
    const technicians = await techniciansByPerson(tx, people);
    return js.map((j) => jobView(j.row, j.order, details, technicians));
  }
}

/** Technician (by name, unassigned last), then scheduled start, then the stored route order. */
function routeOrder(found: ErpRecord[], rows: Map<number, JobRow>): ErpRecord[] {
  const tech = (o: ErpRecord) =>
    Array.isArray(o.person_id) ? `${String(o.person_id[1])}\u0000${String(o.person_id[0])}` : '\uffff';
  const start = (o: ErpRecord) => (typeof o.scheduled_date_start === 'string' ? o.scheduled_date_start : '\uffff');
  return found
    .filter((o) => rows.has(o.id))
    .sort(
      (a, b) =>
        tech(a).localeCompare(tech(b)) ||
        start(a).localeCompare(start(b)) ||
        rows.get(a.id)!.route_order - rows.get(b.id)!.route_order ||
        a.id - b.id,
    );
}
