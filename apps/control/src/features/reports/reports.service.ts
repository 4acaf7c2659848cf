/**
 * The reports (docs/reports.md): the summary every plan has, and the funnel by source with the
 * advanced figures that `advanced_reports` sells. Decides the ranges, the plan gate and the money
 * (the ERP's major units to integer minor units of the tenant's currency); the ERP does the counting.
 */
import { DEFAULT_TIME_ZONE } from '@platform/contracts/branding.js';
import type { FunnelGroup, FunnelRow, ReportFunnel, ReportSummary } from '@platform/contracts/reports.js';
import { type Db, withTenant } from '@platform/db';
import type { Erp } from '@platform/erp';

import type { Principal } from '../auth/principal.js';
import type { BranchesService } from '../branches/branches.service.js';
import { fsmStages } from '../jobs/erp/fsm-stages.js';
import type { PlanLimits } from '../plans/plan-limits.service.js';
import type { TenantErps } from '../tenants/tenant-erps.js';
import { productivity, toMinor } from './report-figures.js';
import { erpRange, months, rangeOr, todayIn } from './report-range.js';
import * as erpSide from './reports-erp.js';

/** What a report is asked for: days (the tenant's), and a branch (`multi_location`'s filter). */
export interface ReportQuery {
  from?: string | undefined;
  to?: string | undefined;
  branch?: string | undefined;
}

/** The tenant's settings a report needs (Settings → Company). */
export type ReportSettings = (tenantId: string) => Promise<{ currency: string; time_zone?: string | null }>;

export class ReportsService {
  constructor(
    private readonly db: Db,
    private readonly erps: TenantErps,
    private readonly plans: Pick<PlanLimits, 'assertFeature'>,
    /** The tenant's currency and time zone. */
    private readonly settingsOf: ReportSettings,
    /** The branch filter (ZIP-based); none: every report is the whole tenant's. */
    private readonly branches?: Pick<BranchesService, 'scopes'>,
  ) {}

  /** The ERP, currency, the range in the tenant's days and time zone, and the branch filter `p` is under. */
  private async context(p: Principal, q: ReportQuery, now: Date) {
    const [erp, settings, scope] = await Promise.all([
      this.erps.forTenant(p.tenantId),
      this.settingsOf(p.tenantId),
      this.branches ? this.branches.scopes(p, erpSide.BRANCH_ZIP_FIELDS, q.branch) : null,
    ]);
    const tz = settings.time_zone || DEFAULT_TIME_ZONE;
    const range = rangeOr(q, todayIn(now, tz));
    const s = scope?.domains ?? undefined;
    return { erp, currency: settings.currency, tz, range, r: erpRange(range, tz), scope, s, branch: q.branch ?? null };
  }

  async summary(p: Principal, q: ReportQuery, now: Date): Promise<ReportSummary> {
    const { erp, currency, tz, range, r, s, branch } = await this.context(p, q, now);
    const m = months(range.to);
    const done = (await fsmStages(erp)).idsOf('done');
    const paidIn = (x: typeof r) => [...(s?.invoice ?? []), ...erpSide.paidIn(x)];
    const [jobs, sent, won, paid, current, previous] = await Promise.all([
      erpSide.total(erp, 'fsm.order', [...(s?.job ?? []), ...erpSide.jobsDone(r, done)]),
      erpSide.total(erp, 'sale.order', [...(s?.order ?? []), ...erpSide.quotesIn(r, false)]),
      erpSide.total(erp, 'sale.order', [...(s?.order ?? []), ...erpSide.quotesIn(r, true)]),
      erpSide.total(erp, 'account.move', paidIn(r), 'amount_total'),
      erpSide.total(erp, 'account.move', paidIn(erpRange(m.current, tz)), 'amount_total'),
      erpSide.total(erp, 'account.move', paidIn(erpRange(m.previous, tz)), 'amount_total'),
    ]);
    return {
      currency,
      ...range,
      time_zone: tz,
      branch,
      jobs_done: jobs.count,
      quotes_sent: sent.count,
      quotes_won: won.count,
      revenue: toMinor(paid.sum, currency),
      revenue_this_month: toMinor(current.sum, currency),
      revenue_last_month: toMinor(previous.sum, currency),
    };
  }

  /** PLAN_FEATURE_MISSING (naming the cheapest plan with advanced reports) before anything is read. */
  async funnel(p: Principal, q: ReportQuery, group: FunnelGroup, now: Date): Promise<ReportFunnel> {
    await withTenant(this.db, p.tenantId, (tx) => this.plans.assertFeature(tx, p.tenantId, 'advanced_reports'));
    const { erp, currency, tz, range, r, s, scope, branch } = await this.context(p, q, now);
    const done = (await fsmStages(erp)).idsOf('done');
    const [stages, quotes, products, jobs, branches] = await Promise.all([
      erpSide.funnelStages(erp, group, r, s),
      erpSide.total(erp, 'sale.order', [...(s?.order ?? []), ...erpSide.quotesIn(r, false)], 'amount_total'),
      erpSide.revenueByProduct(erp, r, s),
      erpSide.doneJobs(erp, r, done, s),
      byBranch(erp, scope, r, currency),
    ]);
    const leadCreated = await erpSide.leadCreatedOf(erp, [
      ...new Set(jobs.flatMap((j) => (j.saleId ? [j.saleId] : []))),
    ]);
    const rows = funnelRows(stages, currency);
    const sum = (k: keyof Omit<FunnelRow, 'key'>) => rows.reduce((n, x) => n + x[k], 0);
    return {
      currency,
      ...range,
      time_zone: tz,
      branch,
      group,
      rows,
      total: {
        leads: sum('leads'),
        quotes: sum('quotes'),
        won: sum('won'),
        paid: sum('paid'),
        revenue: sum('revenue'),
      },
      average_quote: quotes.count ? toMinor(quotes.sum / quotes.count, currency) : null,
      ...productivity(jobs, leadCreated),
      products: products
        .map((x) => ({ product: x.key ?? '(none)', revenue: toMinor(x.sum, currency) }))
        .sort((a, b) => b.revenue - a.revenue),
      branches,
    };
  }
}

/** One row per group value met at any stage, by revenue then leads; the paid sum rounded per group. */
function funnelRows(s: Awaited<ReturnType<typeof erpSide.funnelStages>>, currency: string): FunnelRow[] {
  const rows = new Map<string | null, FunnelRow>();
  const row = (key: string | null) => {
    let x = rows.get(key);
    if (!x) rows.set(key, (x = { key, leads: 0, quotes: 0, won: 0, paid: 0, revenue: 0 }));
    return x;
  };
  for (const g of s.leads) row(g.key).leads += g.count;
  for (const g of s.quotes) row(g.key).quotes += g.count;
  for (const g of s.won) row(g.key).won += g.count;
  for (const g of s.paid) {
    row(g.key).paid += g.count;
    row(g.key).revenue += toMinor(g.sum, currency);
  }
  return [...rows.values()].sort((a, b) => b.revenue - a.revenue || b.leads - a.leads);
}

type Scopes = Awaited<ReturnType<BranchesService['scopes']>>;

/**
 * Paid invoices and their revenue for each branch the person sees (one `read_group` a branch; a
 * tenant has a handful). Every invoice is in exactly one branch (the default takes the ZIPs no other
 * serves), so the rows add up to the tenant's revenue. Empty without branches.
 */
async function byBranch(erp: Erp, scope: Scopes, r: Parameters<typeof erpSide.paidIn>[0], currency: string) {
  if (!scope) return [];
  const rows = await Promise.all(
    scope.visible.map(async (b) => {
      const t = await erpSide.total(
        erp,
        'account.move',
        [...(scope.of(b).invoice ?? []), ...erpSide.paidIn(r)],
        'amount_total',
      );
      return { id: b.id, name: b.name, paid: t.count, revenue: toMinor(t.sum, currency) };
    }),
  );
  return rows.sort((a, b) => b.revenue - a.revenue);
}
