/**
 * /office/jobs/:id: one job (GET /jobs/{id}) with its photos and signature shown through short-lived
 * download URLs (POST /jobs/{id}/downloads, one per file, asked on each visit) and its history
 * (GET /jobs/{id}/history). Reschedule and "Back to needs scheduling" are offered only in the stages
 * that allow them (job-actions.ts).
 */
import { call, postJson } from '../field/api.js';
import type { Job } from '../field/types.js';
import { $ } from '../shared/dom.js';
import { type HistoryEntry, jobHtml, type ShownFile } from './job.view.js';
import { explain, say } from './office-common.js';
import type { OfficePage } from './office-page.js';
import { downloadPdf } from './pdf-download.js';

let job: Job | undefined;

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

export const jobPage: OfficePage = {
  async show(app, msg = '') {
    job = await call<Job>(`/jobs/${encodeURIComponent(jobId())}`);
    const [files, history] = await Promise.all([
      filesOf(job),
      call<{ items: HistoryEntry[] }>(path('/history'))
        .then((r) => r.items)
        .catch(() => []),
    ]);
    app.innerHTML = jobHtml(job, files, history, msg);
  },
  async click(b, app) {
    if (b.id === 'job-pdf') await downloadPdf(path('/report.pdf'), 'job-report.pdf', b);
    if (b.id === 'unschedule') await change(app, '/stage', { stage: 'new' }, 'Back under “Needs scheduling”.');
  },
  async submit(form, app) {
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
