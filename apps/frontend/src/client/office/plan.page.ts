/**
 * /office/settings/plan: the plan and usage (GET /api/tenants/{id}/plan), every plan side by side, and
 * for owners a switch (PUT …/plan). Switching to a plan the usage does not fit takes a second press;
 * the API's own refusal, if it gives one, is said as a sentence naming what to do.
 */
import { call } from '../field/api.js';
import { getSession } from '../field/store.js';
import { h } from '../shared/dom.js';
import { say } from './office-common.js';
import type { OfficePage } from './office-page.js';
import { overLimits, type PlanAnswer, planHtml } from './plan.view.js';
import { planName, refusal, SecondPress, settingsHead, tenantApi } from './settings-common.js';

const press = new SecondPress();

async function draw(app: HTMLElement, msg = '', kind: 'ok' | 'err' | '' = '', answer?: PlanAnswer): Promise<void> {
  const [a, s] = await Promise.all([answer ?? call<PlanAnswer>(await tenantApi('/plan')), getSession()]);
  app.innerHTML = `${settingsHead('Plan and usage')}<p id="office-msg" role="status" class="${kind}">${h(msg)}</p>
${planHtml(a, s?.user.role === 'owner', press.armed)}`;
}

export const planPage: OfficePage = {
  async show(app, msg = '') {
    press.armed = '';
    await draw(app, msg);
  },
  async click(b, app) {
    const id = b.dataset.plan;
    if (!id) return;
    try {
      const now = await call<PlanAnswer>(await tenantApi('/plan'));
      const target = now.plans.find((p) => p.id === id);
      if (target && overLimits(target, now.usage)) {
        const again = `button[data-plan="${CSS.escape(id)}"]`;
        if (!(await press.confirmed(id, again, () => draw(app, overLimits(target, now.usage), 'err', now)))) return;
      }
      const r = await call<PlanAnswer>(await tenantApi('/plan'), {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ plan: id }),
      });
      press.armed = '';
      await draw(app, `You are now on the ${planName(r.plan)} plan.`, 'ok', r);
    } catch (e) {
      say(refusal(e), 'office-msg', 'err');
    }
  },
};
