/**
 * The leads inbox: GET /crm/leads (narrowed to a branch when one is chosen); move a lead to a stage,
 * convert it, or start a quote from it.
 */
import { call, postJson } from '../field/api.js';
import { uuid } from '../shared/dom.js';
import { branchChanged, branchFilterHtml, branchQuery, loadBranches } from './branch-filter.js';
import { type Lead, leadsView, type Stage } from './leads.view.js';
import type { OfficePage } from './office-page.js';

export const leadsPage: OfficePage = {
  async show(app, msg = '') {
    const [leads, stages, branches] = await Promise.all([
      call<{ items: Lead[] }>(`/crm/leads?page_size=50${branchQuery()}`),
      call<{ items: Stage[] }>('/crm/stages').catch(() => ({ items: [] as Stage[] })),
      loadBranches(),
    ]);
    app.innerHTML = leadsView(leads.items, stages.items, msg, branchFilterHtml(branches));
  },
  async change(el, app) {
    if (branchChanged(el)) return this.show(app);
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
