/**
 * The first-run checklist on the office home, for owners and admins, until every item is done: each
 * item links to the screen where it is done and is ticked by the control plane from what the company
 * actually did (GET /api/tenants/{id}/setup-checklist), so it ticks itself.
 */
import { call } from '../field/api.js';
import type { Session } from '../field/types.js';
import { h } from '../shared/dom.js';
import { planName, tenantApi } from './settings-common.js';

interface Item {
  id: string;
  done: boolean;
  href: string;
  requires_plan?: string;
}

const LABELS: Record<string, string> = {
  company: 'Add your company’s details: name, phone or email, and address',
  branding: 'Upload your logo and pick your colours',
  price_grid: 'Review a price grid, so quotes carry your prices',
  technician: 'Invite a technician to the field app',
  domain: 'Add your own domain for your website and portal',
  integrations: 'Connect your accounting, texts or team chat',
};

const isHome = () => /^\/office(\/leads)?\/?$/.test(location.pathname); // /office redirects to the leads

export function checklistHtml(items: Item[]): string {
  const done = items.filter((i) => i.done).length;
  const rows = items
    .map((i) => {
      const label = h(LABELS[i.id] ?? i.id);
      const locked = i.requires_plan
        ? ` <span class="muted">(comes with ${h(planName(i.requires_plan))}: <a href="/office/settings/plan">see plans</a>)</span>`
        : '';
      const mark = i.done ? '✓' : '○';
      const state = `<span class="visually-hidden">${i.done ? 'done' : 'to do'}: </span>`;
      return `<li data-item="${h(i.id)}" class="${i.done ? 'done' : ''}"><span aria-hidden="true">${mark}</span> ${state}${
        i.done ? label : `<a href="${h(i.href)}">${label}</a>`
      }${locked}</li>`;
    })
    .join('');
  return `<h2 id="setup-h" style="margin-top:0">Set up your company: ${done} of ${items.length} done</h2><ul class="plain">${rows}</ul>`;
}

export async function showSetupChecklist(s: Session | undefined): Promise<void> {
  const old = document.getElementById('setup-checklist');
  if (!s || !isHome() || !['owner', 'admin'].includes(s.user.role)) return void old?.remove();
  const c = await call<{ items: Item[]; done: number; total: number }>(await tenantApi('/setup-checklist')).catch(
    () => undefined,
  );
  document.body.dataset.setupChecklist = c ? `${c.done}/${c.total}` : 'none';
  if (!c || c.done === c.total) return void old?.remove();
  const box = old ?? document.createElement('section');
  box.id = 'setup-checklist';
  box.className = 'card';
  box.setAttribute('aria-labelledby', 'setup-h');
  box.innerHTML = checklistHtml(c.items);
  if (!old) (document.getElementById('verify-banner') ?? document.getElementById('office-bar'))?.after(box);
}
