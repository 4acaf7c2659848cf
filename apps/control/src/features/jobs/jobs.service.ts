/**
 * Reading jobs: the list (by day, range, technician, stage; technicians in route order) and one job,
 * each built from the tenant's ERP and the platform's rows. A technician sees only the jobs assigned
 * to them; anything else, like another tenant's job, is not found.
 */
import { type Db, type Queryable, withTenant } from '@platform/db';
import type { Domain, Erp } from '@platform/erp';
import { AppError } from '@platform/kernel';

import type { Principal } from '../auth/principal.js';
import type { BranchesService } from '../branches/branches.service.js';
import { receivedSaleOrders } from '../supply/purchase-orders-erp.js';
import type { TenantErps } from '../tenants/tenant-erps.js';
import { listedJobs, pageOfOrders } from './erp/fsm-order-list.js';
import { PLATFORM_ORDERS, readOrders, toErpTime } from './erp/fsm-orders.js';
import { fsmStages } from './erp/fsm-stages.js';
import { jobView } from './job-view.js';
import {
  detailsOf,
  jobById,
  type JobRow,
  jobsOfOrders,
  ordersOfKinds,
  technicianPerson,
  techniciansByPerson,
} from './jobs.repo.js';
import type { ErpJob, Job, JobKind, StageKey } from './jobs.types.js';
import { pageRows } from './jobs-page.repo.js';

export interface JobListFilter {
  date?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  technician_id?: string | undefined;
  stage?: StageKey | undefined;
  kind?: JobKind | undefined;
  /** A branch: jobs whose address's ZIP it serves (and always the branches a person is limited to). */
  branch?: string | undefined;
  page: number;
  page_size: number;
}

export interface LoadedJob {
  tenantId: string;
  erp: Erp;
  row: JobRow;
  order: ErpJob;
}

const DAY = 86_400_000;
const isDate = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s);

export class JobsReader {
  constructor(
    private readonly deps: { db: Db; erps: TenantErps; branches?: Pick<BranchesService, 'scope'> | undefined },
  ) {}

  /** SEAM for search and customers: the platform job of each of these ERP orders (orders made elsewhere are absent). */
  async idsForOrders(tenantId: string, orderIds: number[]): Promise<Map<number, string>> {
    const rows = await withTenant(this.deps.db, tenantId, (tx) => jobsOfOrders(tx, orderIds));
    return new Map(rows.map((r) => [r.erp_order_id, r.id]));
  }

  /**
   * One page: the ERP filters, orders, counts and pages the platform's orders (indexes on its side),
   * then the platform reads its rows of that page only, so a page costs the same whatever the
   * tenant's history. No ERP call inside a platform transaction (the embedded ERP may share the
   * database, and PGlite has one connection).
   */
  async list(
    p: Principal,
    f: JobListFilter,
  ): Promise<{ items: Job[]; page: number; page_size: number; total: number }> {
    const erp = await this.deps.erps.forTenant(p.tenantId);
    const byPerson = p.role === 'technician' || f.technician_id !== undefined;
    const scope: { person?: number | undefined; wanted?: number | undefined } = !byPerson
      ? {}
      : await withTenant(this.deps.db, p.tenantId, async (tx) => ({
          person: p.role === 'technician' ? ((await technicianPerson(tx, p.userId)) ?? 0) : undefined,
          wanted: f.technician_id ? ((await technicianPerson(tx, f.technician_id)) ?? 0) : undefined,
        }));
    const empty = { items: [], page: f.page, page_size: f.page_size, total: 0 };
    if (scope.person === 0 || scope.wanted === 0) return empty;
    const domain: Domain = [...PLATFORM_ORDERS];
    if (scope.person !== undefined) domain.push(['person_id', '=', scope.person]);
    if (scope.wanted !== undefined) domain.push(['person_id', '=', scope.wanted]);
    if (f.stage) domain.push(['stage_id', 'in', (await fsmStages(erp)).idsOf(f.stage)]);
    if (f.kind) domain.push(await this.kindLeaf(p.tenantId, f.kind));
    const branch = this.deps.branches ? await this.deps.branches.scope(p, 'location_id.zip', f.branch) : null;
    if (branch) domain.push(...branch);
    const from = f.date ?? f.from;
    const to = f.date ?? f.to;
    if (from) domain.push(['scheduled_date_start', '>=', toErpTime(from)]);
    if (to)
      domain.push([
        'scheduled_date_start',
        '<',
        toErpTime(isDate(to) ? new Date(Date.parse(to) + DAY).toISOString() : to),
      ]);
    const found = await pageOfOrders(erp, domain, { offset: (f.page - 1) * f.page_size, limit: f.page_size });
    if (!found.orders.length) return { ...empty, total: found.total };
    const people = found.orders.map((o) => (Array.isArray(o.person_id) ? Number(o.person_id[0]) : null));
    const [orders, extra] = await Promise.all([
      listedJobs(erp, found.orders),
      withTenant(
        this.deps.db,
        p.tenantId,
        async (tx) => {
          const page = await pageRows(
            tx,
            found.orders.map((o) => o.id),
            people.filter((x): x is number => x !== null),
          );
          return { ...page, rows: new Map(page.rows.map((r) => [r.erp_order_id, r])) };
        },
        { readOnly: true },
      ),
    ]);
    // An order with the marker but no row (a create whose reply was lost and never retried) is no job.
    const items = routeOrder(
      orders.filter((o) => extra.rows.has(o.erpId)),
      extra.rows,
    ).map((o) => jobView(extra.rows.get(o.erpId)!, o, extra.details, extra.technicians));
    await markReadyToFit(erp, items);
    return { items, page: f.page, page_size: f.page_size, total: found.total };
  }

  /**
   * The kind lives on the platform's rows; the ERP pages: hand it the orders of that kind (measure,
   * service), or, for installs (every job made before kinds, the most), the orders that are not.
   */
  private async kindLeaf(tenantId: string, kind: JobKind): Promise<[string, string, number[]]> {
    const others = kind === 'install' ? (['measure', 'service'] as JobKind[]) : [kind];
    const ids = await withTenant(this.deps.db, tenantId, (tx) => ordersOfKinds(tx, others));
    return ['id', kind === 'install' ? 'not in' : 'in', ids];
  }

  async get(p: Principal, id: string): Promise<Job> {
    const j = await this.load(p, id);
    const job = await withTenant(this.deps.db, p.tenantId, (tx) => this.view(tx, j));
    await markReadyToFit(await this.deps.erps.forTenant(p.tenantId), [job]);
    return job;
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

  /** SEAM for the customer's appointment page: the job's ERP order within the tenant, or undefined. */
  async orderOf(tenantId: string, id: string): Promise<ErpJob | undefined> {
    const row = await withTenant(this.deps.db, tenantId, (tx) => jobById(tx, id));
    if (!row) return undefined;
    const [order] = await readOrders(await this.deps.erps.forTenant(tenantId), [row.erp_order_id]);
    return order;
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

/** Within the page, one technician's jobs of the same scheduled start follow the stored route order. */
function routeOrder(page: ErpJob[], rows: Map<number, JobRow>): ErpJob[] {
  const same = (a: ErpJob, b: ErpJob) => a.personId === b.personId && a.scheduledStart === b.scheduledStart;
  return page
    .map((o, i) => ({ o, i }))
    .sort(
      (a, b) => (same(a.o, b.o) ? rows.get(a.o.erpId)!.route_order - rows.get(b.o.erpId)!.route_order : 0) || a.i - b.i,
    )
    .map((x) => x.o);
}

/** Installs whose windows have all arrived from the suppliers are "ready to fit" (docs/control-plane.md, "Supplier orders"). */
async function markReadyToFit(erp: Erp, jobs: Job[]): Promise<void> {
  const installs = jobs.filter((j) => j.kind === 'install' && j.sale_order_id !== null);
  if (!installs.length) return;
  // A failed read leaves the badge off: the list and the page still show.
  const received = await receivedSaleOrders(
    erp,
    installs.map((j) => j.sale_order_id!),
  ).catch(() => new Set<number>());
  for (const j of installs) j.ready_to_fit = received.has(j.sale_order_id!);
}
