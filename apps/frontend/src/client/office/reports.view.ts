/**
 * The HTML of /office/reports: the date range, the summary (every plan), and the advanced part
 * (`advanced_reports`): the funnel by source with its chart, the figures, technicians and products,
 * each with a CSV download; on a plan without it, why and which plan unlocks it. Money arrives in
 * minor units of the tenant's currency.
 */
import type { FunnelGroup, ReportFunnel, ReportSummary } from '@platform/contracts/reports.js';

import { h } from '../shared/dom.js';
import { formatMoney } from '../shared/money.js';

export const GROUP_NAMES: Record<FunnelGroup, string> = {
  source: 'Form',
  utm_source: 'UTM source',
  utm_medium: 'UTM medium',
  utm_campaign: 'UTM campaign',
  landing_page: 'Landing page',
};

export interface RangeForm {
  from: string;
  to: string;
  group: FunnelGroup;
}

/** The dates, the grouping when the funnel is there to group (not on a plan without it), and the branch filter. */
export function rangeFormHtml(f: RangeForm, grouping: boolean, branchFilter = ''): string {
  const options = Object.entries(GROUP_NAMES)
    .map(([v, label]) => `<option value="${v}"${v === f.group ? ' selected' : ''}>${h(label)}</option>`)
    .join('');
  return `<form id="report-range" class="card row" novalidate>
<label>From <input id="report-from" name="from" type="date" value="${h(f.from)}" required></label>
<label>To <input id="report-to" name="to" type="date" value="${h(f.to)}" required></label>
${grouping ? `<label>By <select id="report-group" name="group">${options}</select></label>` : ''}
${branchFilter}<button class="btn" type="submit">Show</button></form>`;
}

const change = (now: number, before: number) => {
  if (!before) return now ? 'up from nothing' : 'the same as';
  const pct = Math.round(((now - before) / before) * 100);
  return pct === 0 ? 'the same as' : `${pct > 0 ? 'up' : 'down'} ${Math.abs(pct)}% on`;
};

const figure = (label: string, value: string, id: string) =>
  `<div class="card report-figure"><p class="muted">${h(label)}</p><p class="report-value" id="${id}">${h(value)}</p></div>`;

const csvButton = (part: string, label: string) =>
  `<button class="btn secondary" type="button" data-report-csv="${part}">${h(label)}</button>`;

export function summaryHtml(s: ReportSummary): string {
  const m = (n: number) => formatMoney(n, s.currency);
  return `<section aria-labelledby="summary-h"><h2 id="summary-h">Summary</h2>
<div class="report-figures">${figure('Jobs done', String(s.jobs_done), 'fig-jobs')}${figure('Quotes sent', String(s.quotes_sent), 'fig-sent')}${figure(
    'Quotes won',
    String(s.quotes_won),
    'fig-won',
  )}${figure('Revenue (paid)', m(s.revenue), 'fig-revenue')}</div>
<p id="month-vs-last">This month ${h(m(s.revenue_this_month))}, ${change(s.revenue_this_month, s.revenue_last_month)} last month (${h(
    m(s.revenue_last_month),
  )}).</p>
<p>${csvButton('summary', 'Download summary (CSV)')}</p></section>`;
}

export function lockedHtml(reason: string): string {
  return `<section class="card" aria-labelledby="advanced-h"><h2 id="advanced-h" style="margin-top:0">Advanced reports</h2>
<p id="advanced-locked">${h(reason)}</p>
<p>The funnel from lead to paid invoice by source, campaign and landing page, technicians' productivity and revenue by product.</p>
<p><a href="/office/settings/plan">See the plans</a></p></section>`;
}

export function funnelHtml(f: ReportFunnel): string {
  const m = (n: number) => formatMoney(n, f.currency);
  const name = GROUP_NAMES[f.group];
  const rows = f.rows
    .map(
      (r) =>
        `<tr><th scope="row" data-label="${h(name)}">${h(r.key ?? '(none)')}</th><td data-label="Leads">${r.leads}</td><td data-label="Quotes">${r.quotes}</td><td data-label="Won">${r.won}</td><td data-label="Paid">${r.paid}</td><td data-label="Revenue">${h(m(r.revenue))}</td></tr>`,
    )
    .join('');
  const t = f.total;
  const techs = f.technicians
    .map(
      (x) =>
        `<tr><th scope="row" data-label="Technician">${h(x.technician)}</th><td data-label="Jobs">${x.jobs}</td><td data-label="Days">${x.days}</td><td data-label="Jobs a day">${x.jobs_per_day}</td><td data-label="Minutes on site">${x.minutes_on_site}</td></tr>`,
    )
    .join('');
  const products = f.products
    .map(
      (p) =>
        `<tr><th scope="row" data-label="Product">${h(p.product)}</th><td data-label="Revenue">${h(m(p.revenue))}</td></tr>`,
    )
    .join('');
  const branches = f.branches
    .map(
      (b) =>
        `<tr><th scope="row" data-label="Branch">${h(b.name)}</th><td data-label="Paid">${b.paid}</td><td data-label="Revenue">${h(m(b.revenue))}</td></tr>`,
    )
    .join('');
  const none = (cols: number, what: string) =>
    `<tr><td colspan="${cols}" class="muted">No ${what} in these dates.</td></tr>`;
  return `<section aria-labelledby="funnel-h"><h2 id="funnel-h">Lead to paid, by ${h(name.toLowerCase())}</h2>
<div id="funnel-chart" class="report-chart" role="img" aria-label="Revenue by ${h(name.toLowerCase())}: the table below has the figures"></div>
<table class="lines report-table" id="funnel-table"><caption class="visually-hidden">Leads, quotes, won orders, paid invoices and revenue by ${h(name.toLowerCase())}</caption>
<thead><tr><th scope="col">${h(name)}</th><th scope="col">Leads</th><th scope="col">Quotes</th><th scope="col">Won</th><th scope="col">Paid</th><th scope="col">Revenue</th></tr></thead>
<tbody>${rows || none(6, 'leads')}</tbody>
<tfoot><tr><th scope="row" data-label="${h(name)}">Total</th><td data-label="Leads">${t.leads}</td><td data-label="Quotes">${t.quotes}</td><td data-label="Won">${t.won}</td><td data-label="Paid">${t.paid}</td><td data-label="Revenue">${h(m(t.revenue))}</td></tr></tfoot></table>
<p>${csvButton('funnel', 'Download funnel (CSV)')}</p>
<div class="report-figures">${figure('Average quote', f.average_quote === null ? '–' : m(f.average_quote), 'fig-avg-quote')}${figure(
    'Lead to install',
    f.lead_to_install_days === null ? '–' : `${f.lead_to_install_days} days`,
    'fig-lead-install',
  )}</div></section>
<section aria-labelledby="techs-h"><h2 id="techs-h">Technicians</h2>
<table class="lines report-table" id="techs-table"><thead><tr><th scope="col">Technician</th><th scope="col">Jobs</th><th scope="col">Days</th><th scope="col">Jobs a day</th><th scope="col">Minutes on site</th></tr></thead>
<tbody>${techs || none(5, 'jobs done')}</tbody></table><p>${csvButton('technicians', 'Download technicians (CSV)')}</p></section>
<section aria-labelledby="products-h"><h2 id="products-h">Revenue by product</h2>
<table class="lines report-table" id="products-table"><thead><tr><th scope="col">Product</th><th scope="col">Revenue</th></tr></thead>
<tbody>${products || none(2, 'paid invoices')}</tbody></table><p>${csvButton('products', 'Download products (CSV)')}</p></section>${
    branches
      ? `<section aria-labelledby="branches-h"><h2 id="branches-h">Revenue by branch</h2>
<table class="lines report-table" id="branches-table"><thead><tr><th scope="col">Branch</th><th scope="col">Paid</th><th scope="col">Revenue</th></tr></thead>
<tbody>${branches}</tbody></table></section>`
      : ''
  }`;
}
