/**
 * /office/settings/plan: the plan and usage (GET /api/tenants/{id}/plan), every plan side by side, and
 * for owners a switch (PUT …/plan) to each plan the team fits; a plan it does not fit says what to remove
 * first, and the API's own refusal (the team grew meanwhile) is said as a sentence naming what to do.
 */
import { call } from '../field/api.js';
import { getSession } from '../field/store.js';
import { h } from '../shared/dom.js';
import { say } from './office-common.js';
import type { OfficePage } from './office-page.js';
import { type PlanAnswer, planHtml } from './plan.view.js';
import { planName, refusal, settingsHead, tenantApi } from './settings-common.js';

async function draw(app: HTMLElement, msg = '', kind: 'ok' | 'err' | '' = '', answer?: PlanAnswer): Promise<void> {
  const [a, s] = await Promise.all([answer ?? call<PlanAnswer>(await tenantApi('/plan')), getSession()]);
  app.innerHTML = `${settingsHead('Plan and usage')}<p id="office-msg" role="status" class="${kind}">${h(msg)}</p>
${planHtml(a, s?.user.role === 'owner')}`;
}

export const planPage: OfficePage = {
  async show(app, msg = '') {
    await draw(app, msg);
  },
  async click(b, app) {
    const id = b.dataset.plan;
    if (!id) return;
    try {
      const r = await call<PlanAnswer>(await tenantApi('/plan'), {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ plan: id }),
      });
      await draw(app, `You are now on the ${planName(r.plan)} plan.`, 'ok', r);
    } catch (e) {
      say(refusal(e), 'office-msg', 'err');
    }
  },
};
