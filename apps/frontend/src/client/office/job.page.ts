/**
 * /office/jobs/:id: one job (GET /jobs/{id}) with its photos and signature shown through short-lived
 * download URLs (POST /jobs/{id}/downloads, one per file, asked on each visit) and its history
 * (GET /jobs/{id}/history). Reschedule and "Back to needs scheduling" are offered only in the stages
 * that allow them (job-actions.ts). The Repeat section (job-repeat.ts) makes the job repeat or shows
 * the series it belongs to.
 */
import type { JobInvoiceAnswer } from '@platform/contracts/invoicing.js';

import { call, postJson } from '../field/api.js';
import type { Job } from '../field/types.js';
import { $ } from '../shared/dom.js';
import { type HistoryEntry, jobHtml, type ShownFile } from './job.view.js';
import { previewOf, repeatAction, repeatChanged, repeatSubmit, seriesOf } from './job-repeat.js';
import { repeatHtml } from './job-repeat.view.js';
import { explain, say } from './office-common.js';
import type { OfficePage } from './office-page.js';
import { downloadPdf } from './pdf-download.js';
import { SecondPress } from './settings-common.js';

let job: Job | undefined;
let editingSeries = false;
const ending = new SecondPress();
const EVERY_12_MONTHS = 'FREQ=YEARLY;INTERVAL=1';

const jobId = () => decodeURIComponent(location.pathname.split('/')[3] ?? '');
const path = (tail = '') => `/jobs/${encodeURIComponent(job!.id)}${tail}`;

async function filesOf(j: Job): Promise<ShownFile[]> {
  const all = [...j.photos, ...(j.signature ? [{ ...j.signature, kind: 'signature' }] : [])];
  return Promise.all(
    all.map(async (f) => {
      // A file whose URL cannot be had now is said so; the rest of the job still shows.
      const url = await postJson<{ download_url: string }>(`/jobs/${encodeURIComponent(j.id)}/downloads`, {
        key: f.key,
      })
        .then((r) => r.download_url)
        .catch(() => null);
      return { key: f.key, kind: f.kind, at: f.at, url };
    }),
  );
}

async function change(app: HTMLElement, tail: string, body: object, done: string): Promise<void> {
  try {
    await postJson(path(tail), body, { 'if-match': job!.version });
    await jobPage.show(app, done);
  } catch (e) {
    say(explain(e), 'office-msg', 'err');
  }
}

/** Invoices the completed job (once, whatever the clicks) and opens its invoice. */
async function invoiceJob(b: HTMLButtonElement): Promise<void> {
  b.disabled = true;
  say('Making the invoice…', 'office-msg');
  try {
    const r = await postJson<JobInvoiceAnswer>(path('/invoice'), {}, { 'idempotency-key': `invoice-${job!.id}` });
    location.assign(`/office/invoices/${r.invoice.id}`);
  } catch (e) {
    b.disabled = false;
    say(explain(e), 'office-msg', 'err');
  }
}

export const jobPage: OfficePage = {
  async show(app, msg = '') {
    job = await call<Job>(`/jobs/${encodeURIComponent(jobId())}`);
    const [files, history, series] = await Promise.all([
      filesOf(job),
      call<{ items: HistoryEntry[] }>(path('/history'))
        .then((r) => r.items)
        .catch(() => []),
      seriesOf(job.id),
    ]);
    editingSeries = !!series?.series;
    // The form's first choice (every 12 months) shows its dates at once.
    const offer = !!series && !series.series && series.feature.included && !!job.scheduled_start;
    const preview = offer ? await previewOf(job.id, EVERY_12_MONTHS).catch(() => []) : [];
    const repeat = repeatHtml(job.id, series, !!job.scheduled_start, preview);
    app.innerHTML = jobHtml(job, files, history, msg, repeat);
    if (ending.armed) $<HTMLButtonElement>('#repeat-end', app)?.replaceChildren('Confirm: end the series');
  },
  async click(b, app) {
    if (b.id === 'job-pdf') await downloadPdf(path('/report.pdf'), 'job-report.pdf', b);
    if (b.id === 'job-invoice') await invoiceJob(b);
    if (b.id === 'unschedule') await change(app, '/stage', { stage: 'new' }, 'Back under “Needs scheduling”.');
    if (!b.id.startsWith('repeat-')) return;
    if (b.id === 'repeat-end' && !(await ending.confirmed('end', '#repeat-end', () => jobPage.show(app)))) return;
    const done = await repeatAction(b.id, job!.id);
    if (done) await jobPage.show(app, done);
  },
  async change(el) {
    // The sign-in form's fields change before any job is shown.
    if (job) await repeatChanged(el, job.id);
  },
  async submit(form, app) {
    if (form.id === 'repeat-form') {
      const editing = editingSeries;
      if (await repeatSubmit(form, job!.id, editing))
        await jobPage.show(app, editing ? 'The series is changed.' : 'The job repeats: its next jobs are made ahead.');
      return;
    }
    if (form.id !== 'reschedule-form') return;
    const value = $<HTMLInputElement>('#j-start', form)!.value;
    if (!value) return say('Choose the day and time the job starts.', 'office-msg', 'err');
    const start = new Date(value);
    const length =
      job!.scheduled_start && job!.scheduled_end
        ? Date.parse(job!.scheduled_end) - Date.parse(job!.scheduled_start)
        : 2 * 3_600_000;
    await change(
      app,
      '/schedule',
      { scheduled_start: start.toISOString(), scheduled_end: new Date(start.getTime() + length).toISOString() },
      `Scheduled for ${start.toLocaleString()}.`,
    );
  },
};
