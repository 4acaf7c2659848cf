/**
 * /office/settings/branches: the tenant's branches (GET /api/tenants/{id}/branches), each with the ZIP
 * codes it serves and the people limited to it; add or edit one (one form), make one the default,
 * remove one (a second press confirms). On a plan without multi_location the list stays readable and
 * the form is replaced by the plan that brings it.
 */
import type { BranchView } from '@platform/contracts/branch.js';

import { call, postJson } from '../field/api.js';
import { $, h } from '../shared/dom.js';
import { errSlot, say } from './office-common.js';
import type { OfficePage } from './office-page.js';
import type { PlanAnswer } from './plan.view.js';
import { planName, refusal, SecondPress, sendForm, settingsHead, tenantApi } from './settings-common.js';

type Branch = BranchView;
interface Member {
  id: string;
  email: string;
  name: string | null;
  role: string;
}

const press = new SecondPress();
let branches: Branch[] = [];
let editing: Branch | undefined;

const who = (team: Member[], id: string) => {
  const m = team.find((x) => x.id === id);
  return m ? (m.name ?? m.email) : 'someone who left';
};

function branchHtml(b: Branch, team: Member[], canChange: boolean): string {
  const facts = [b.address, b.phone, b.time_zone].filter(Boolean).map((x) => h(x!));
  const members = b.member_ids.length
    ? b.member_ids.map((id) => h(who(team, id))).join(', ')
    : 'nobody (everyone sees it)';
  const buttons = !canChange
    ? ''
    : `<div class="row" style="margin-top:.5rem"><button class="btn secondary" type="button" data-edit="${h(b.id)}">Edit<span class="visually-hidden"> ${h(b.name)}</span></button>${
        b.is_default
          ? ''
          : `<button class="btn secondary" type="button" data-default="${h(b.id)}">Make default<span class="visually-hidden"> ${h(b.name)}</span></button><button class="btn${press.armed === b.id ? '' : ' secondary'}" type="button" data-remove="${h(b.id)}">${press.armed === b.id ? 'Confirm: remove' : 'Remove'}<span class="visually-hidden"> ${h(b.name)}</span></button>`
      }</div>`;
  return `<li class="card"><h3 style="margin-top:0">${h(b.name)}${b.is_default ? ' <span class="pill">default</span>' : ''}</h3>
${facts.length ? `<div class="muted">${facts.join(' · ')}</div>` : ''}
<div class="wrap-any"><strong>ZIP codes:</strong> ${b.zip_codes.length ? h(b.zip_codes.join(', ')) : 'none'}${b.is_default ? ' and every ZIP no other branch serves' : ''}</div>
<div><strong>Limited to this branch:</strong> ${members}</div>${buttons}</li>`;
}

function formHtml(team: Member[]): string {
  const b = editing;
  const v = (x: string | null | undefined) => h(x ?? '');
  const boxes = team
    .filter((m) => !['owner', 'admin'].includes(m.role))
    .map(
      (m) =>
        `<label class="check"><input type="checkbox" data-member="${h(m.id)}"${b?.member_ids.includes(m.id) ? ' checked' : ''}> ${h(m.name ?? m.email)} (${h(m.role)})</label>`,
    )
    .join('');
  return `<form id="branch-form" class="card" novalidate><h2 style="margin-top:0">${b ? `Edit ${h(b.name)}` : 'Add a branch'}</h2>
<label for="br-name">Name</label><input id="br-name" data-field="name" aria-describedby="br-name-err" required maxlength="100" value="${v(b?.name)}">${errSlot('br-name', 'name')}
<label for="br-zips">ZIP codes it serves (separated by commas or spaces)</label><textarea id="br-zips" data-field="zip_codes" aria-describedby="br-zips-err" rows="2">${v(b?.zip_codes.join(', '))}</textarea>${errSlot('br-zips', 'zip_codes')}
<label for="br-address">Address</label><input id="br-address" data-field="address" aria-describedby="br-address-err" maxlength="1000" value="${v(b?.address)}">${errSlot('br-address', 'address')}
<label for="br-phone">Phone</label><input id="br-phone" type="tel" data-field="phone" aria-describedby="br-phone-err" maxlength="20" value="${v(b?.phone)}">${errSlot('br-phone', 'phone')}
<label for="br-zone">Time zone (for example America/Denver)</label><input id="br-zone" data-field="time_zone" aria-describedby="br-zone-err" maxlength="64" value="${v(b?.time_zone)}">${errSlot('br-zone', 'time_zone')}
<fieldset><legend>People limited to this branch (they see only its leads)</legend>${boxes || '<p class="muted">Office staff and technicians appear here once invited.</p>'}</fieldset>
<div class="row" style="margin-top:.5rem"><button class="btn" type="submit">${b ? 'Save branch' : 'Add branch'}</button>${b ? '<button class="btn secondary" type="button" data-cancel="1">Cancel</button>' : ''}</div></form>`;
}

async function draw(app: HTMLElement, msg = '', kind: 'ok' | 'err' | '' = ''): Promise<void> {
  const [r, team, plan] = await Promise.all([
    call<{ items: Branch[] }>(await tenantApi('/branches')),
    call<{ items: Member[] }>(await tenantApi('/users?page_size=100')),
    call<PlanAnswer>(await tenantApi('/plan')),
  ]);
  branches = r.items;
  const canChange = Boolean(plan.plans.find((p) => p.id === plan.plan)?.features.multi_location);
  const unlock = plan.plans.find((p) => p.features.multi_location);
  const locked = `<p class="card" id="branches-locked">Several locations come with ${h(planName(unlock?.id ?? 'professional'))}. <a href="/office/settings/plan">See Plan and usage</a> to change plan.</p>`;
  app.innerHTML = `${settingsHead('Branches')}<p id="office-msg" role="status" class="${kind}">${h(msg)}</p>
<p>Each lead goes to the branch that serves its ZIP code, and to the default branch otherwise. The inbox filters by branch.</p>
<h2>Your branches</h2>${branches.length ? `<ul class="plain">${branches.map((b) => branchHtml(b, team.items, canChange)).join('')}</ul>` : '<p>No branches yet: the company works as one.</p>'}
${canChange ? formHtml(team.items) : locked}`;
}

export const branchesPage: OfficePage = {
  async show(app, msg = '') {
    press.armed = '';
    editing = undefined;
    await draw(app, msg);
  },
  async submit(form, app) {
    if (form.id !== 'branch-form') return;
    const value = (id: string) => $<HTMLInputElement>(id, form)!.value.trim();
    const body = {
      name: value('#br-name'),
      zip_codes: value('#br-zips')
        .split(/[\s,]+/)
        .filter(Boolean),
      address: value('#br-address') || null,
      phone: value('#br-phone') || null,
      time_zone: value('#br-zone') || null,
      member_ids: Array.from(form.querySelectorAll<HTMLInputElement>('input[data-member]:checked')).map(
        (i) => i.dataset.member!,
      ),
    };
    const was = editing;
    const ok = await sendForm(form, async () => {
      if (was)
        await call(await tenantApi(`/branches/${encodeURIComponent(was.id)}`), {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      else await postJson(await tenantApi('/branches'), body);
    });
    if (!ok) return;
    editing = undefined;
    await draw(app, `${body.name} ${was ? 'saved' : 'added'}.`, 'ok');
  },
  async click(b, app) {
    const { edit, remove, cancel } = b.dataset;
    const makeDefault = b.dataset.default;
    try {
      if (edit || cancel) {
        editing = branches.find((x) => x.id === edit);
        await draw(app);
        return $<HTMLInputElement>('#br-name')?.focus();
      }
      if (makeDefault) {
        const x = branches.find((y) => y.id === makeDefault)!;
        await call(await tenantApi(`/branches/${encodeURIComponent(x.id)}`), {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...x, id: undefined, member_ids: x.member_ids, is_default: true }),
        });
        return draw(app, `${x.name} is now the default branch.`, 'ok');
      }
      if (remove) {
        if (!(await press.confirmed(remove, `button[data-remove="${CSS.escape(remove)}"]`, () => draw(app)))) return;
        await call(await tenantApi(`/branches/${encodeURIComponent(remove)}`), { method: 'DELETE' });
        return draw(app, 'Branch removed: its ZIP codes go to the default branch.', 'ok');
      }
    } catch (e) {
      say(refusal(e), 'office-msg', 'err');
    }
  },
};
