/**
 * The leads inbox: GET /crm/leads (narrowed to a branch when one is chosen); move a lead to a stage,
 * convert it, or start a quote from it.
 */
import { call, postJson } from '../field/api.js';
import { uuid } from '../shared/dom.js';
import { type BranchOption, type Lead, leadsView, type Stage } from './leads.view.js';
import type { OfficePage } from './office-page.js';
import { tenantApi } from './settings-common.js';

/** The branch the inbox is narrowed to ('' for all), kept in the address (?branch=) so a reload keeps it. */
const chosenBranch = () => new URLSearchParams(location.search).get('branch') ?? '';

export const leadsPage: OfficePage = {
  async show(app, msg = '') {
    const branch = chosenBranch();
    const [leads, stages, branches] = await Promise.all([
      call<{ items: Lead[] }>(`/crm/leads?page_size=50${branch ? `&branch=${encodeURIComponent(branch)}` : ''}`),
      call<{ items: Stage[] }>('/crm/stages').catch(() => ({ items: [] as Stage[] })),
      call<{ items: BranchOption[] }>(await tenantApi('/branches')).catch(() => ({ items: [] as BranchOption[] })),
    ]);
    app.innerHTML = leadsView(leads.items, stages.items, msg, branches.items, branch);
  },
  async change(el, app) {
    if (el.dataset.leadBranch) {
      const url = new URL(location.href);
      if (el.value) url.searchParams.set('branch', el.value);
      else url.searchParams.delete('branch');
      history.replaceState(null, '', url);
      return this.show(app);
    }
    if (!el.dataset.leadStage) return;
    await call(`/crm/leads/${el.dataset.leadStage}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ stage_id: Number(el.value) }),
    });
    await this.show(app, 'Stage saved.');
  },
  async click(b, app) {
    if (!b.dataset.convert) return;
    await postJson(`/crm/leads/${b.dataset.convert}/convert`, {}, { 'idempotency-key': uuid() });
    await this.show(app, 'Converted to an opportunity.');
  },
};
