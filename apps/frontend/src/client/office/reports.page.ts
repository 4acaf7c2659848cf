/**
 * /office/reports: the summary for every plan (GET /reports/summary) and, with `advanced_reports`,
 * the funnel by source (GET /reports/funnel) with its chart; on another plan the API's refusal says
 * which plan unlocks it. Each table downloads as CSV from the API (the same figures, as a spreadsheet wants).
 * The first dates are the API's "this month so far" in the company's time zone; with two branches or
 * more, a branch filter (kept in the address, like the inbox's) narrows every figure.
 */
import type { FunnelGroup, ReportFunnel, ReportSummary } from '@platform/contracts/reports.js';

import { call, callText } from '../field/api.js';
import { $, h } from '../shared/dom.js';
import { saveFile } from '../shared/save-file.js';
import { branchChanged, branchFilterHtml, chosenBranch, loadBranches } from './branch-filter.js';
import { say } from './office-common.js';
import type { OfficePage } from './office-page.js';
import { funnelHtml, lockedHtml, type RangeForm, rangeFormHtml, summaryHtml } from './reports.view.js';
import { drawFunnelChart } from './reports-chart.js';
import { planRefusal, refusal } from './settings-common.js';

/** Empty dates until the first answer: the API then gives this month in the company's time zone. */
let form: RangeForm = { from: '', to: '', group: 'source' };

/** The dates (once known) and the branch filter, as a query string. */
const rangeQuery = (extra: Record<string, string> = {}) =>
  new URLSearchParams({
    ...(form.from ? { from: form.from, to: form.to } : {}),
    ...(chosenBranch() ? { branch: chosenBranch() } : {}),
    ...extra,
  }).toString();
const query = (extra: Record<string, string> = {}) => rangeQuery({ group: form.group, ...extra });

async function draw(app: HTMLElement, msg = ''): Promise<void> {
  const summaryQ = rangeQuery();
  const [summary, funnel, branches] = await Promise.all([
    call<ReportSummary>(`/reports/summary?${summaryQ}`),
    call<ReportFunnel>(`/reports/funnel?${query()}`).catch((e: unknown) => {
      const reason = planRefusal(e);
      if (reason) return reason;
      throw e;
    }),
    loadBranches(),
  ]);
  form = { ...form, from: summary.from, to: summary.to };
  app.innerHTML = `<h1>Reports</h1><p id="office-msg" role="status">${h(msg)}</p>
${rangeFormHtml(form, typeof funnel !== 'string', branchFilterHtml(branches))}${summaryHtml(summary)}${typeof funnel === 'string' ? lockedHtml(funnel) : funnelHtml(funnel)}`;
  if (typeof funnel !== 'string') drawFunnelChart($('#funnel-chart', app)!, funnel);
}

async function download(part: string): Promise<void> {
  const path =
    part === 'summary'
      ? `/reports/summary?${rangeQuery({ format: 'csv' })}`
      : `/reports/funnel?${query({ part, format: 'csv' })}`;
  const name = `${part}-${part === 'summary' ? '' : `${form.group}-`}${form.from}-${form.to}.csv`;
  saveFile(name, await callText(path));
}

export const reportsPage: OfficePage = {
  async show(app, msg = '') {
    await draw(app, msg);
  },
  async submit(f, app) {
    if (f.id !== 'report-range') return;
    const value = (id: string) => $<HTMLInputElement | HTMLSelectElement>(id, f)?.value;
    const next = {
      from: value('#report-from') ?? '',
      to: value('#report-to') ?? '',
      group: (value('#report-group') ?? form.group) as FunnelGroup,
    };
    if (!next.from || !next.to) return say('Choose both dates.', 'office-msg', 'err');
    if (next.from > next.to) return say('"From" must be on or before "To".', 'office-msg', 'err');
    form = next;
    const branch = $<HTMLSelectElement>('#branch-filter', f);
    if (branch) branchChanged(branch);
    try {
      await draw(app, `Showing ${form.from} to ${form.to}.`);
      $<HTMLElement>('#summary-h')?.focus();
    } catch (e) {
      say(refusal(e), 'office-msg', 'err');
    }
  },
  async click(b) {
    const part = b.dataset.reportCsv;
    if (!part) return;
    try {
      await download(part);
      say(`Downloaded ${part} (CSV).`, 'office-msg', 'ok');
    } catch (e) {
      say(refusal(e), 'office-msg', 'err');
    }
  },
};
