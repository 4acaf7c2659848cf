/**
 * /office/settings/team: the members (GET /api/tenants/{id}/users) with their roles, the plan's user
 * and technician limits beside them (GET …/plan), invite by email and role, change a role (chosen in
 * its list, then sent by its button: arrowing through a list sends nothing), remove (a second press
 * confirms), and a technician's calendar feed (a new secret link, or off). Open invitations (GET …/invitations) show with Resend (a new link by email; the old one
 * stops working) and Revoke (a second press confirms; the link stops working).
 */
import type { PendingInvitationView } from '@platform/contracts/console-settings.js';

import { call, postJson } from '../field/api.js';
import { getSession } from '../field/store.js';
import { $, h, uuid } from '../shared/dom.js';
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

const ROLES: [string, string][] = [
  ['technician', 'Technician'],
  ['office', 'Office'],
  ['admin', 'Admin'],
  ['owner', 'Owner'],
];
const roleOptions = (selected: string) =>
  ROLES.map(([v, l]) => `<option value="${v}"${v === selected ? ' selected' : ''}>${l}</option>`).join('');

const press = new SecondPress();

const limit = (used: number, max: number | null) => `${used} of ${max === null ? 'unlimited' : max}`;

function memberHtml(m: Member, me: string): string {
  const who = h(m.name || m.email);
  const self = m.id === me;
  return `<li class="card"><strong>${who}</strong>${self ? ' (you)' : ''} <span class="muted wrap-any">${h(m.email)}</span>
<div class="muted">Joined ${h(when(m.joined_at))}</div>
<div class="row" style="margin-top:.5rem"><label for="role-${h(m.id)}">Role<span class="visually-hidden"> of ${who}</span></label><select id="role-${h(m.id)}">${roleOptions(m.role)}</select>
<button class="btn secondary" type="button" data-save-role="${h(m.id)}">Change role<span class="visually-hidden"> of ${who}</span></button>
${m.role === 'technician' ? calendarButtons(m.id, who) : ''}
${self ? '' : `<button class="btn${press.armed === m.id ? '' : ' secondary'}" type="button" data-remove="${h(m.id)}">${press.armed === m.id ? `Confirm: remove ${who}` : `Remove<span class="visually-hidden"> ${who}</span>`}</button>`}</div></li>`;
}

/** A technician's calendar feed: a new secret link (shown once, in the message) or off. */
const calendarButtons = (id: string, who: string) =>
  `<button class="btn secondary" type="button" data-calendar-make="${h(id)}">New calendar link<span class="visually-hidden"> of ${who}</span></button>
<button class="btn secondary" type="button" data-calendar-off="${h(id)}">Turn off calendar<span class="visually-hidden"> of ${who}</span></button>`;

function invitationHtml(i: PendingInvitationView): string {
  const to = h(i.email);
  const armed = press.armed === `revoke:${i.id}`;
  return `<li class="card" data-invitation="${h(i.id)}"><strong class="wrap-any">${to}</strong> <span class="pill">pending</span> ${h(i.role)} · expires ${h(when(i.expires_at))}${i.invited_by ? `<div class="muted wrap-any">Sent by ${h(i.invited_by)}</div>` : ''}
<div class="row" style="margin-top:.5rem"><button class="btn secondary" type="button" data-resend="${h(i.id)}">Resend<span class="visually-hidden"> to ${to}</span></button>
<button class="btn${armed ? '' : ' secondary'}" type="button" data-revoke="${h(i.id)}">${armed ? `Confirm: revoke the invitation of ${to}` : `Revoke<span class="visually-hidden"> the invitation of ${to}</span>`}</button></div></li>`;
}

async function draw(app: HTMLElement, msg = '', kind: 'ok' | 'err' | '' = ''): Promise<void> {
  const [members, invitations, plan, s] = await Promise.all([
    call<{ items: Member[] }>(await tenantApi('/users?page_size=100')),
    call<{ items: PendingInvitationView[] }>(await tenantApi('/invitations')),
    call<PlanView>(await tenantApi('/plan')),
    getSession(),
  ]);
  app.innerHTML = `${settingsHead('Team')}<p id="office-msg" role="status" class="${kind}">${h(msg)}</p>
<div class="settings-split"><section aria-labelledby="members-h"><h2 id="members-h">Members</h2><ul class="plain">${members.items
    .map((m) => memberHtml(m, s!.user.id))
    .join('')}</ul>
${invitations.items.length ? `<h2>Pending invitations</h2><ul class="plain">${invitations.items.map(invitationHtml).join('')}</ul>` : ''}</section>
<aside class="card" aria-labelledby="limits-h"><h2 id="limits-h" style="margin-top:0">${h(plan.name)} plan</h2>
<p>Users: ${limit(plan.usage.users, plan.limits.users)}</p><p>Technicians: ${limit(plan.usage.technicians, plan.limits.technicians)}</p>
<p class="muted">Everyone counts as a user; technicians also take a technician seat.</p></aside></div>
<form id="invite-form" class="card" novalidate><h2 style="margin-top:0">Invite someone</h2>
<label for="invite-email">Email</label><input id="invite-email" type="email" data-field="email" aria-describedby="invite-email-err" required maxlength="254" autocomplete="off">${errSlot('invite-email', 'email')}
<label for="invite-role">Role</label><select id="invite-role" data-field="role" aria-describedby="invite-role-err">${roleOptions('technician')}</select>${errSlot('invite-role', 'role')}
<button class="btn" type="submit" style="margin-top:.5rem">Send invitation</button></form>`;
}

async function invite(email: string, role: string): Promise<void> {
  await postJson(await tenantApi('/invitations'), { email, role });
}

/** Each technician's calendar-feed rotation Idempotency-Key, until that rotation answers. */
const rotateKeys = new Map<string, string>();

export const teamPage: OfficePage = {
  async show(app, msg = '') {
    press.armed = '';
    await draw(app, msg);
  },
  async submit(form, app) {
    if (form.id !== 'invite-form') return;
    const email = $<HTMLInputElement>('#invite-email', form)!.value.trim();
    const role = $<HTMLSelectElement>('#invite-role', form)!.value;
    if (await sendForm(form, () => invite(email, role)))
      await draw(app, `Invitation sent to ${email}: the link in it works for 7 days.`, 'ok');
  },
  async click(b, app) {
    const { remove, resend, revoke, saveRole, calendarMake, calendarOff } = b.dataset;
    try {
      if (calendarMake || calendarOff) {
        const path = `/technicians/${encodeURIComponent((calendarMake ?? calendarOff)!)}/calendar-feed`;
        if (calendarOff) {
          await call(path, { method: 'DELETE' });
          return draw(app, 'Calendar feed turned off: its link no longer works.', 'ok');
        }
        // One key per press: a press whose answer was lost, pressed again, is the same rotation.
        const key = rotateKeys.get(calendarMake!) ?? uuid();
        rotateKeys.set(calendarMake!, key);
        const feed = await call<{ url: string }>(path, { method: 'POST', headers: { 'idempotency-key': key } });
        rotateKeys.delete(calendarMake!);
        return draw(app, `New calendar link (shown once; any earlier link stops): ${feed.url}`, 'ok');
      }
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
      if (resend) {
        const r = await postJson<PendingInvitationView>(
          await tenantApi(`/invitations/${encodeURIComponent(resend)}/resend`),
          {},
        );
        press.armed = '';
        await draw(app, `Invitation sent again to ${r.email}; the earlier link no longer works.`, 'ok');
        return $<HTMLButtonElement>(`button[data-resend="${CSS.escape(resend)}"]`)?.focus();
      }
      if (revoke) {
        const button = `button[data-revoke="${CSS.escape(revoke)}"]`;
        if (!(await press.confirmed(`revoke:${revoke}`, button, () => draw(app)))) return;
        await call(await tenantApi(`/invitations/${encodeURIComponent(revoke)}`), { method: 'DELETE' });
        return draw(app, 'Invitation revoked: its link no longer works.', 'ok');
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
