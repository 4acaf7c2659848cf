/**
 * The reports (docs/reports.md): the summary every plan has, and the funnel by source with the
 * advanced figures that `advanced_reports` sells. Decides the ranges, the plan gate and the money
 * (the ERP's major units to integer minor units of the tenant's currency); the ERP does the counting.
 */
import type { FunnelGroup, FunnelRow, ReportFunnel, ReportSummary } from '@platform/contracts/reports.js';
import { type Db, withTenant } from '@platform/db';

import { fsmStages } from '../jobs/erp/fsm-stages.js';
import type { PlanLimits } from '../plans/plan-limits.service.js';
import type { TenantErps } from '../tenants/tenant-erps.js';
import { productivity, toMinor } from './report-figures.js';
import { type DayRange, erpRange, months } from './report-range.js';
import * as erpSide from './reports-erp.js';

export class ReportsService {
  constructor(
    private readonly db: Db,
    private readonly erps: TenantErps,
    private readonly plans: Pick<PlanLimits, 'assertFeature'>,
    /** The tenant's currency (Settings → Company). */
    private readonly currencyOf: (tenantId: string) => Promise<string>,
  ) {}

  async summary(tenantId: string, range: DayRange): Promise<ReportSummary> {
    const [erp, currency] = await Promise.all([this.erps.forTenant(tenantId), this.currencyOf(tenantId)]);
    const r = erpRange(range);
    const m = months(range.to);
    const done = (await fsmStages(erp)).idsOf('done');
    const [jobs, sent, won, paid, current, previous] = await Promise.all([
      erpSide.total(erp, 'fsm.order', erpSide.jobsDone(r, done)),
      erpSide.total(erp, 'sale.order', erpSide.quotesIn(r, false)),
      erpSide.total(erp, 'sale.order', erpSide.quotesIn(r, true)),
      erpSide.total(erp, 'account.move', erpSide.paidIn(r), 'amount_total'),
      erpSide.total(erp, 'account.move', erpSide.paidIn(erpRange(m.current)), 'amount_total'),
      erpSide.total(erp, 'account.move', erpSide.paidIn(erpRange(m.previous)), 'amount_total'),
    ]);
    return {
      currency,
      ...range,
      jobs_done: jobs.count,
      quotes_sent: sent.count,
      quotes_won: won.count,
      revenue: toMinor(paid.sum, currency),
      revenue_this_month: toMinor(current.sum, currency),
      revenue_last_month: toMinor(previous.sum, currency),
    };
  }

  /** PLAN_FEATURE_MISSING (naming the cheapest plan with advanced reports) before anything is read. */
  async funnel(tenantId: string, range: DayRange, group: FunnelGroup): Promise<ReportFunnel> {
    await withTenant(this.db, tenantId, (tx) => this.plans.assertFeature(tx, tenantId, 'advanced_reports'));
    const [erp, currency] = await Promise.all([this.erps.forTenant(tenantId), this.currencyOf(tenantId)]);
    const r = erpRange(range);
    const done = (await fsmStages(erp)).idsOf('done');
    const [stages, quotes, products, jobs] = await Promise.all([
      erpSide.funnelStages(erp, group, r),
      erpSide.total(erp, 'sale.order', erpSide.quotesIn(r, false), 'amount_total'),
      erpSide.revenueByProduct(erp, r),
      erpSide.doneJobs(erp, r, done),
    ]);
    const leadCreated = await erpSide.leadCreatedOf(erp, [
      ...new Set(jobs.flatMap((j) => (j.saleId ? [j.saleId] : []))),
    ]);
    const rows = funnelRows(stages, currency);
    const sum = (k: keyof Omit<FunnelRow, 'key'>) => rows.reduce((n, x) => n + x[k], 0);
    return {
      currency,
      ...range,
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
        .map((p) => ({ product: p.key ?? '(none)', revenue: toMinor(p.sum, currency) }))
        .sort((a, b) => b.revenue - a.revenue),
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
