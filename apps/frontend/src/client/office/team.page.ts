/**
 * /office/settings/team: the members (GET /api/tenants/{id}/users) with their roles, the plan's user
 * and technician limits beside them (GET …/plan), invite by email and role, change a role (chosen in
 * its list, then sent by its button: arrowing through a list sends nothing), remove (a second press
 * confirms). The control plane lists no pending invitations, so the ones sent from this page are kept
 * on screen until it is left; "Resend" invites again, which replaces the pending one.
 */
import { call, postJson } from '../field/api.js';
import { getSession } from '../field/store.js';
import { $, h } from '../shared/dom.js';
import { errSlot, say } from './office-common.js';
import type { OfficePage } from './office-page.js';
import { refusal, SecondPress, sendForm, settingsHead, tenantApi, when } from './settings-common.js';

interface Member {
  id: string;
  email: string;
  name: string | null;
  role: string;
  joined_at: string;
}
interface PlanView {
  name: string;
  limits: { users: number | null; technicians: number | null };
  usage: { users: number; technicians: number };
}
interface Invitation {
  email: string;
  role: string;
  expires_at: string;
}

const ROLES: [string, string][] = [
  ['technician', 'Technician'],
  ['office', 'Office'],
  ['admin', 'Admin'],
  ['owner', 'Owner'],
];
const roleOptions = (selected: string) =>
  ROLES.map(([v, l]) => `<option value="${v}"${v === selected ? ' selected' : ''}>${l}</option>`).join('');

const press = new SecondPress();
/** Invitations sent from this page view, newest first (the API has no list of them). */
const sent: Invitation[] = [];

const limit = (used: number, max: number | null) => `${used} of ${max === null ? 'unlimited' : max}`;

function memberHtml(m: Member, me: string): string {
  const who = h(m.name || m.email);
  const self = m.id === me;
  return `<li class="card"><strong>${who}</strong>${self ? ' (you)' : ''} <span class="muted wrap-any">${h(m.email)}</span>
<div class="muted">Joined ${h(when(m.joined_at))}</div>
<div class="row" style="margin-top:.5rem"><label for="role-${h(m.id)}">Role<span class="visually-hidden"> of ${who}</span></label><select id="role-${h(m.id)}">${roleOptions(m.role)}</select>
<button class="btn secondary" type="button" data-save-role="${h(m.id)}">Change role<span class="visually-hidden"> of ${who}</span></button>
${self ? '' : `<button class="btn${press.armed === m.id ? '' : ' secondary'}" type="button" data-remove="${h(m.id)}">${press.armed === m.id ? `Confirm: remove ${who}` : `Remove<span class="visually-hidden"> ${who}</span>`}</button>`}</div></li>`;
}

const invitationHtml = (i: Invitation) =>
  `<li class="card"><strong class="wrap-any">${h(i.email)}</strong> <span class="pill">pending</span> ${h(i.role)} · expires ${h(when(i.expires_at))}
<div class="row" style="margin-top:.5rem"><button class="btn secondary" type="button" data-resend="${h(i.email)}" data-resend-role="${h(i.role)}">Resend<span class="visually-hidden"> to ${h(i.email)}</span></button></div></li>`;

async function draw(app: HTMLElement, msg = '', kind: 'ok' | 'err' | '' = ''): Promise<void> {
  const [members, plan, s] = await Promise.all([
    call<{ items: Member[] }>(await tenantApi('/users?page_size=100')),
    call<PlanView>(await tenantApi('/plan')),
    getSession(),
  ]);
  app.innerHTML = `${settingsHead('Team')}<p id="office-msg" role="status" class="${kind}">${h(msg)}</p>
<div class="settings-split"><section aria-labelledby="members-h"><h2 id="members-h">Members</h2><ul class="plain">${members.items
    .map((m) => memberHtml(m, s!.user.id))
    .join('')}</ul>
${sent.length ? `<h2>Invitations sent</h2><ul class="plain">${sent.map(invitationHtml).join('')}</ul>` : ''}</section>
<aside class="card" aria-labelledby="limits-h"><h2 id="limits-h" style="margin-top:0">${h(plan.name)} plan</h2>
<p>Users: ${limit(plan.usage.users, plan.limits.users)}</p><p>Technicians: ${limit(plan.usage.technicians, plan.limits.technicians)}</p>
<p class="muted">Everyone counts as a user; technicians also take a technician seat.</p></aside></div>
<form id="invite-form" class="card" novalidate><h2 style="margin-top:0">Invite someone</h2>
<label for="invite-email">Email</label><input id="invite-email" type="email" data-field="email" aria-describedby="invite-email-err" required maxlength="254" autocomplete="off">${errSlot('invite-email', 'email')}
<label for="invite-role">Role</label><select id="invite-role" data-field="role" aria-describedby="invite-role-err">${roleOptions('technician')}</select>${errSlot('invite-role', 'role')}
<button class="btn" type="submit" style="margin-top:.5rem">Send invitation</button></form>`;
}

async function invite(email: string, role: string): Promise<Invitation> {
  const r = await postJson<Invitation>(await tenantApi('/invitations'), { email, role });
  const i = sent.findIndex((x) => x.email.toLowerCase() === r.email.toLowerCase());
  if (i >= 0) sent.splice(i, 1);
  sent.unshift(r);
  return r;
}

export const teamPage: OfficePage = {
  async show(app, msg = '') {
    press.armed = '';
    await draw(app, msg);
  },
  async submit(form, app) {
    if (form.id !== 'invite-form') return;
    const email = $<HTMLInputElement>('#invite-email', form)!.value.trim();
    const role = $<HTMLSelectElement>('#invite-role', form)!.value;
    if (await sendForm(form, async () => void (await invite(email, role))))
      await draw(app, `Invitation sent to ${email}: the link in it works for 7 days.`, 'ok');
  },
  async click(b, app) {
    const { remove, resend, resendRole, saveRole } = b.dataset;
    try {
      if (saveRole) {
        const role = $<HTMLSelectElement>(`#role-${CSS.escape(saveRole)}`)!.value;
        await call(await tenantApi(`/users/${encodeURIComponent(saveRole)}`), {
          method: 'PATCH',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ role }),
        });
        await draw(app, 'Role changed.', 'ok');
        return $<HTMLButtonElement>(`button[data-save-role="${CSS.escape(saveRole)}"]`)?.focus();
      }
      if (resend && resendRole) {
        await invite(resend, resendRole);
        return draw(app, `Invitation sent again to ${resend}; the earlier link no longer works.`, 'ok');
      }
      if (!remove) return;
      if (!(await press.confirmed(remove, `button[data-remove="${CSS.escape(remove)}"]`, () => draw(app)))) return;
      await call(await tenantApi(`/users/${encodeURIComponent(remove)}`), { method: 'DELETE' });
      await draw(app, 'Member removed: their sessions here have ended.', 'ok');
    } catch (e) {
      say(refusal(e), 'office-msg', 'err');
    }
  },
};
