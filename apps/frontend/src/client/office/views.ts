/** The office's screens as HTML strings: the leads inbox and the dispatch board. */
import { h } from '../shared/dom.js';

export interface Lead {
  id: number;
  name: string;
  contact_name: string | null;
  email: string | null;
  phone: string | null;
  source: string | null;
  stage: { id: number; name: string } | null;
  type: string;
  callback: boolean;
  attribution: Record<string, string | null>;
  create_date: string | null;
}

export interface Stage {
  id: number;
  name: string;
}

export interface BoardJob {
  id: string;
  name: string;
  customer: { name: string };
  address: { street?: string; city?: string };
  scheduled_start: string | null;
  scheduled_end: string | null;
  stage: { name: string; key: string };
  technician: { id: string; name: string } | null;
  version: string;
}

const attributionLine = (a: Record<string, string | null>) =>
  Object.entries(a)
    .filter(([, v]) => v)
    .map(([k, v]) => `${k}: ${v}`)
    .join(' · ');

export function leadsView(leads: Lead[], stages: Stage[], msg = ''): string {
  const rows = leads.map((l) => {
    const tel = (l.phone ?? '').replace(/[^+\d]/g, '');
    const options = stages
      .map((s) => `<option value="${s.id}" ${l.stage?.id === s.id ? 'selected' : ''}>${h(s.name)}</option>`)
      .join('');
    return `<li class="card"><div class="row" style="justify-content:space-between"><strong>${h(l.contact_name ?? l.name)}</strong>${
      l.callback ? '<span class="pill">Call back</span>' : ''
    }</div><div>${h(l.name)}</div><div class="muted">${h(l.source ?? 'unknown source')}${l.create_date ? ` · ${h(l.create_date.slice(0, 16).replace('T', ' '))}` : ''}</div>
<div class="muted">${h(attributionLine(l.attribution))}</div>
<div class="row" style="margin-top:.5rem">${tel ? `<a class="btn secondary" href="tel:${h(tel)}">Call ${h(l.phone)}</a>` : ''}${
      l.email ? `<a class="btn secondary" href="mailto:${h(l.email)}">Email</a>` : ''
    }<label class="visually-hidden" for="stage-${l.id}">Stage of ${h(l.contact_name ?? l.name)}</label><select id="stage-${l.id}" data-lead-stage="${l.id}" style="width:auto">${options}</select>${
      l.type === 'lead'
        ? `<button class="btn" type="button" data-convert="${l.id}">Convert to opportunity</button>`
        : '<span class="pill">Opportunity</span>'
    }</div></li>`;
  });
  return `<h1>Leads inbox</h1><p id="office-msg" role="status">${h(msg)}</p>${rows.length ? `<ul class="plain">${rows.join('')}</ul>` : '<p>No leads.</p>'}`;
}

const time = (iso: string | null) =>
  iso ? new Date(iso).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' }) : 'unscheduled';

/** Jobs of one day by technician; each job can be reassigned or moved with ordinary form controls (keyboard first). */
export function boardView(day: string, jobs: BoardJob[], techs: { id: string; name: string }[], msg = ''): string {
  const columns = [...techs, { id: '', name: 'Unassigned' }].map((t) => {
    const mine = jobs.filter((j) => (j.technician?.id ?? '') === t.id);
    const cards = mine
      .map((j) => {
        const opts = techs
          .map((o) => `<option value="${h(o.id)}" ${o.id === j.technician?.id ? 'selected' : ''}>${h(o.name)}</option>`)
          .join('');
        return `<li class="card" data-job="${h(j.id)}"><strong>${h(j.customer.name)}</strong> <span class="pill">${h(j.stage.name)}</span>
<div>${h(time(j.scheduled_start))}–${h(time(j.scheduled_end))} · ${h([j.address.street, j.address.city].filter(Boolean).join(', '))}</div>
<label for="assign-${h(j.id)}">Technician</label><select id="assign-${h(j.id)}" data-assign="${h(j.id)}"><option value="">Choose…</option>${opts}</select>
<label for="start-${h(j.id)}">Start</label><input id="start-${h(j.id)}" type="datetime-local" value="${h(local(j.scheduled_start))}" data-start="${h(j.id)}">
<button class="btn secondary" type="button" data-reschedule="${h(j.id)}" style="margin-top:.5rem">Reschedule</button></li>`;
      })
      .join('');
    return `<section aria-labelledby="col-${h(t.id || 'none')}"><h2 id="col-${h(t.id || 'none')}">${h(t.name)} (${mine.length})</h2><ul class="plain">${cards || '<li class="muted">No jobs.</li>'}</ul></section>`;
  });
  return `<h1>Dispatch board</h1><form id="day-form" class="row"><label for="day">Day</label><input id="day" type="date" value="${h(day)}" style="width:auto"><button class="btn secondary" type="submit">Show</button></form>
<p id="office-msg" role="status">${h(msg)}</p><div class="board" style="display:grid;gap:1rem;grid-template-columns:repeat(auto-fit,minmax(16rem,1fr))">${columns.join('')}</div>`;
}

/** ISO → the value of a datetime-local input, in the browser's time zone. */
export function local(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}
