/**
 * The reports as CSV for a spreadsheet (csv-stringify: quoting and line ends as RFC 4180 wants).
 * Money as decimal amounts in the tenant's currency (the header names it): a spreadsheet sums those,
 * not minor units.
 */
import type { ReportFunnel, ReportSummary } from '@platform/contracts/reports.js';
import { stringify } from 'csv-stringify/sync';

export const FUNNEL_PARTS = ['funnel', 'technicians', 'products'] as const;
export type FunnelPart = (typeof FUNNEL_PARTS)[number];

const digits = (currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
const major = (minor: number, currency: string) => (minor / 10 ** digits(currency)).toFixed(digits(currency));
const csv = (rows: unknown[][]) => stringify(rows, { record_delimiter: 'windows' });

export function summaryCsv(s: ReportSummary): string {
  const c = s.currency;
  return csv([
    [
      'from',
      'to',
      'jobs_done',
      'quotes_sent',
      'quotes_won',
      `revenue (${c})`,
      `revenue_this_month (${c})`,
      `revenue_last_month (${c})`,
    ],
    [
      s.from,
      s.to,
      s.jobs_done,
      s.quotes_sent,
      s.quotes_won,
      major(s.revenue, c),
      major(s.revenue_this_month, c),
      major(s.revenue_last_month, c),
    ],
  ]);
}

export function funnelCsv(f: ReportFunnel, part: FunnelPart): string {
  const c = f.currency;
  if (part === 'technicians')
    return csv([
      ['technician', 'jobs', 'days', 'jobs_per_day', 'minutes_on_site'],
      ...f.technicians.map((t) => [t.technician, t.jobs, t.days, t.jobs_per_day, t.minutes_on_site]),
    ]);
  if (part === 'products')
    return csv([['product', `revenue (${c})`], ...f.products.map((p) => [p.product, major(p.revenue, c)])]);
  return csv([
    [f.group, 'leads', 'quotes', 'won', 'paid', `revenue (${c})`],
    ...f.rows.map((r) => [r.key ?? '(none)', r.leads, r.quotes, r.won, r.paid, major(r.revenue, c)]),
    ['total', f.total.leads, f.total.quotes, f.total.won, f.total.paid, major(f.total.revenue, c)],
  ]);
}
