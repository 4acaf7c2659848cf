/**
 * The dispatch board as HTML: one day's jobs by technician, and the jobs that still need scheduling.
 * Cards are draggable onto a technician or back to "Needs scheduling" (drag-drop.ts), and every card
 * also has ordinary form controls doing the same, so the keyboard works as well as a pointer.
 */
import { JOB_KIND_NAMES, type JobKind } from '@platform/contracts/job.js';

import { h } from '../shared/dom.js';
import { canUnschedule, isOpenStage } from './job-actions.js';
import type { Technician } from './office-common.js';

export interface BoardJob {
  id: string;
  name: string;
  /** Null when the ERP order has no customer (the real /jobs answers so; a job made in the ERP may lack one). */
  customer: { name: string } | null;
  address: { street?: string; city?: string };
  scheduled_start: string | null;
  scheduled_end: string | null;
  stage: { name: string; key: string };
  technician: { id: string; name: string } | null;
  version: string;
  /** What the visit is for (absent from stand-ins older than kinds: an install). */
  kind?: JobKind;
  /** An install whose windows have all arrived from the suppliers (GET /jobs answers it). */
  ready_to_fit?: boolean;
}

/** The badge of a visit that is not an install (measure, service); installs, the most, carry none. */
export const kindBadge = (j: { kind?: JobKind }): string =>
  j.kind && j.kind !== 'install' ? ` <span class="pill kind">${h(JOB_KIND_NAMES[j.kind])}</span>` : '';

/** Installs whose supplier orders are all received: the office can book the fitting. */
export const readyBadge = (j: { ready_to_fit?: boolean }): string =>
  j.ready_to_fit ? ' <span class="pill ready">Ready to fit</span>' : '';

/** What a card and a message call the job: its customer, else its order name. */
export const jobTitle = (j: BoardJob): string => j.customer?.name ?? j.name;

const time = (iso: string | null) =>
  iso ? new Date(iso).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' }) : '';

const when = (j: BoardJob) =>
  j.scheduled_start
    ? `${new Date(j.scheduled_start).toLocaleDateString(undefined, { weekday: 'short', month: 'short', day: 'numeric' })} ${time(j.scheduled_start)}–${time(j.scheduled_end)}`
    : 'No date yet';

export function jobCard(j: BoardJob, techs: Technician[], inColumn: boolean): string {
  const id = h(j.id);
  const opts = techs
    .map((o) => `<option value="${h(o.id)}" ${o.id === j.technician?.id ? 'selected' : ''}>${h(o.name)}</option>`)
    .join('');
  const unscheduled = j.stage.key === 'new';
  const head = `<strong><a href="/office/jobs/${id}">${h(jobTitle(j))}</a></strong> <span class="pill">${h(j.stage.name)}</span>${kindBadge(j)}${readyBadge(j)}
<div>${h(when(j))} · ${h([j.address.street, j.address.city].filter(Boolean).join(', '))}${j.technician && !inColumn ? ` · ${h(j.technician.name)}` : ''}</div>`;
  // A done or cancelled job is final: no control the control plane would refuse with 409.
  if (!isOpenStage(j.stage.key)) return `<li class="card job-card" data-job="${id}">${head}</li>`;
  return `<li class="card job-card" draggable="true" data-job="${id}" aria-describedby="drag-hint">${head}
<label for="assign-${id}">Technician</label><select id="assign-${id}" data-assign="${id}"><option value="">Choose…</option>${opts}</select>
<label for="start-${id}">Start</label><input id="start-${id}" type="datetime-local" value="${h(local(j.scheduled_start))}" data-start="${id}">
<div class="row" style="margin-top:.5rem"><button class="btn secondary" type="button" data-reschedule="${id}">${unscheduled ? 'Schedule' : 'Reschedule'}</button>${
    !canUnschedule(j.stage.key)
      ? ''
      : `<button class="btn secondary" type="button" data-unschedule="${id}">Back to needs scheduling</button>`
  }</div></li>`;
}

const byStart = (a: BoardJob, b: BoardJob) => (a.scheduled_start ?? '').localeCompare(b.scheduled_start ?? '');

export const jobList = (jobs: BoardJob[], techs: Technician[], empty: string, inColumn: boolean) =>
  `<ul class="plain">${
    [...jobs]
      .sort(byStart)
      .map((j) => jobCard(j, techs, inColumn))
      .join('') || `<li class="muted">${empty}</li>`
  }</ul>`;

/**
 * `day`'s jobs by technician (plus "Unassigned"), and every job in stage `new` under "Needs scheduling"
 * (whatever its date: it is not confirmed yet). A technician's column and "Needs scheduling" are drop
 * targets; "Unassigned" is not, as the control plane has no unassign.
 */
export function boardView(
  day: string,
  jobs: BoardJob[],
  needsScheduling: BoardJob[],
  techs: Technician[],
  dropTime: string,
  msg = '',
): string {
  const planned = jobs.filter((j) => j.stage.key !== 'new');
  const columns = [...techs, { id: '', name: 'Unassigned' }].map((t) => {
    const mine = planned.filter((j) => (j.technician?.id ?? '') === t.id);
    const col = `col-${h(t.id || 'none')}`;
    return `<section class="column${t.id ? ' drop-target' : ''}" aria-labelledby="${col}"${t.id ? ` data-drop="${h(t.id)}"` : ''}><h2 id="${col}">${h(t.name)} (${mine.length})</h2>${jobList(mine, techs, 'No jobs.', true)}</section>`;
  });
  return `<h1>Dispatch board</h1><form id="day-form" class="row"><label for="day">Day</label><input id="day" type="date" value="${h(day)}" style="width:auto"><button class="btn secondary" type="submit">Show</button></form>
<p id="office-msg" role="status">${h(msg)}</p>
<p class="muted" id="drag-hint">Drag a job onto a technician to assign it (a job that needs scheduling is also put on this day at the time below), or use the job's own controls.</p>
<label for="drop-time">Start time for jobs dropped from Needs scheduling</label><input id="drop-time" type="time" value="${h(dropTime)}" style="width:auto">
<section class="column drop-target needs" aria-labelledby="col-needs" data-drop="unscheduled"><h2 id="col-needs">Needs scheduling (${needsScheduling.length})</h2>${jobList(needsScheduling, techs, 'Nothing waiting.', false)}</section>
<div class="board">${columns.join('')}</div>`;
}

/** ISO → the value of a datetime-local input, in the browser's time zone. */
export function local(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}
