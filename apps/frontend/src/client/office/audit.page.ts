/**
 * /office/settings/audit: the company's audit log (GET /api/audit), newest first, filtered by person,
 * action and dates, a page at a time. The API answers owners only: an admin gets a sentence saying so.
 * Dates are the office's local days, both included (to = the start of the day after).
 */
import type { AuditEntryView } from '@platform/contracts/console-settings.js';

import { ApiError, call } from '../field/api.js';
import { $, h } from '../shared/dom.js';
import { type AuditFilters, auditFiltersHtml, auditTableHtml, type Person } from './audit.view.js';
import { say } from './office-common.js';
import type { OfficePage } from './office-page.js';
import { refusal, settingsHead, tenantApi } from './settings-common.js';

const PAGE_SIZE = 25;
const NONE: AuditFilters = { actor: '', action: '', from: '', to: '' };
let filters: AuditFilters = { ...NONE };
let page = 1;

/** Local midnight of a yyyy-mm-dd day, `days` later, as an ISO date-time. */
const dayStart = (day: string, days = 0) => {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y!, m! - 1, d! + days).toISOString();
};

function auditQuery(): string {
  const q = new URLSearchParams({ page: String(page), page_size: String(PAGE_SIZE) });
  if (filters.actor) q.set('actor', filters.actor);
  if (filters.action) q.set('action', filters.action);
  if (filters.from) q.set('from', dayStart(filters.from));
  if (filters.to) q.set('to', dayStart(filters.to, 1));
  return `/api/audit?${q}`;
}

const ownersOnly = (e: unknown) => e instanceof ApiError && e.problem.code === 'ROLE_FORBIDDEN';

async function draw(app: HTMLElement, msg = ''): Promise<void> {
  const head = settingsHead('Audit log');
  try {
    const [entries, actions, members] = await Promise.all([
      call<{ items: AuditEntryView[]; total: number }>(auditQuery()),
      call<{ items: string[] }>('/api/audit/actions'),
      call<{ items: { id: string; name: string | null; email: string }[] }>(await tenantApi('/users?page_size=100')),
    ]);
    const people: Person[] = members.items.map((m) => ({ id: m.id, label: m.name || m.email }));
    app.innerHTML = `${head}<p id="office-msg" role="status">${h(msg)}</p>
<p>Who did what in your company's account, newest first: sign-ins, plan and team changes, settings, keys, quotes and jobs.</p>
${auditFiltersHtml(filters, people, actions.items)}
<section aria-labelledby="entries-h"><h2 id="entries-h" tabindex="-1">Entries</h2>${auditTableHtml({ ...entries, page, pageSize: PAGE_SIZE })}</section>`;
  } catch (e) {
    if (!ownersOnly(e)) throw e;
    app.innerHTML = `${head}<section class="card" aria-labelledby="audit-locked-h"><h2 id="audit-locked-h" style="margin-top:0">Owners only</h2>
<p id="office-msg" role="status">The audit log is shown to the company's owners only. Ask an owner if you need to know who changed something.</p></section>`;
  }
}

export const auditPage: OfficePage = {
  async show(app, msg = '') {
    filters = { ...NONE };
    page = 1;
    await draw(app, msg);
  },
  async submit(form, app) {
    if (form.id !== 'audit-filters') return;
    const value = (id: string) => $<HTMLInputElement | HTMLSelectElement>(id, form)!.value;
    filters = {
      actor: value('#audit-actor'),
      action: value('#audit-action'),
      from: value('#audit-from'),
      to: value('#audit-to'),
    };
    if (filters.from && filters.to && filters.from > filters.to)
      return say('"From" must be on or before "To".', 'office-msg', 'err');
    page = 1;
    try {
      await draw(app, 'Filters applied.');
      $<HTMLElement>('#entries-h')?.focus();
    } catch (e) {
      say(refusal(e), 'office-msg', 'err');
    }
  },
  async click(b, app) {
    try {
      if (b.id === 'audit-clear') {
        filters = { ...NONE };
        page = 1;
        return await draw(app, 'Filters cleared.');
      }
      const to = b.dataset.auditPage;
      if (!to) return;
      page = Number(to);
      await draw(app);
      $<HTMLButtonElement>(`button[data-audit-page]:not([disabled])`)?.focus();
    } catch (e) {
      say(refusal(e), 'office-msg', 'err');
    }
  },
};
