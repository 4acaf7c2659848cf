/**
 * The dispatch calendar as HTML: technicians as rows against the hours of a day (blocks placed and
 * sized by their start and length, half-hour drop slots `data-drop="<technician>|<local start>"`), or
 * against the seven days of a week (a day cell is `data-drop="<technician>|<date>"`: the job keeps its
 * time of day). Each block is a button opening the job's own controls below (the keyboard path), and
 * draggable (drag-drop.ts). Times are the browser's.
 */
import { h } from '../shared/dom.js';
import { type BoardJob, jobCard, jobList, jobTitle, kindBadge } from './board.view.js';
import type { Technician } from './office-common.js';

export type CalendarMode = 'day' | 'week';
/** The hours a day shows; a job outside them is drawn at the nearest edge. */
export const FIRST_HOUR = 7;
export const LAST_HOUR = 19;
const SPAN_MIN = (LAST_HOUR - FIRST_HOUR) * 60;

const pad = (n: number) => String(n).padStart(2, '0');
/** A Date as the local `YYYY-MM-DD`. */
export const localDate = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const time = (d: Date) => d.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
const hourLabel = (hr: number) => time(new Date(2000, 0, 1, hr));

/** The local days a view covers: the day, or Monday to Sunday of its week. */
export function daysOf(mode: CalendarMode, day: string): string[] {
  const d = new Date(`${day}T00:00`);
  if (mode === 'day') return [day];
  const monday = new Date(d.getFullYear(), d.getMonth(), d.getDate() - ((d.getDay() + 6) % 7));
  return Array.from({ length: 7 }, (_v, i) =>
    localDate(new Date(monday.getFullYear(), monday.getMonth(), monday.getDate() + i)),
  );
}

const minutesInDay = (d: Date) => d.getHours() * 60 + d.getMinutes() - FIRST_HOUR * 60;
const clamp = (v: number) => Math.min(Math.max(v, 0), SPAN_MIN);

/** Where a block sits in a day track, in percent of the track: from its start, as wide as its length. */
export function placement(j: BoardJob): { left: number; width: number } {
  const s = new Date(j.scheduled_start!);
  const e = j.scheduled_end ? new Date(j.scheduled_end) : new Date(s.getTime() + 7_200_000);
  const from = clamp(minutesInDay(s));
  const to = clamp(Math.max(minutesInDay(e), minutesInDay(s) + 30));
  return { left: (from / SPAN_MIN) * 100, width: (Math.max(to - from, 30) / SPAN_MIN) * 100 };
}

function block(j: BoardJob, style: string): string {
  const s = new Date(j.scheduled_start!);
  const when = `${time(s)}${j.scheduled_end ? `–${time(new Date(j.scheduled_end))}` : ''}`;
  return `<button type="button" class="cal-job job-card" draggable="true" data-job="${h(j.id)}" data-edit="${h(j.id)}" title="${h(jobTitle(j))}, ${h(when)}" style="${style}" aria-describedby="drag-hint"><strong>${h(jobTitle(j))}</strong>${kindBadge(j)} <span>${h(when)}</span></button>`;
}

function dayTrack(tech: Technician, day: string, jobs: BoardJob[]): string {
  const slots = Array.from({ length: SPAN_MIN / 30 }, (_v, i) => {
    const m = FIRST_HOUR * 60 + i * 30;
    const at = `${day}T${pad(Math.floor(m / 60))}:${pad(m % 60)}`;
    return `<div class="cal-slot${m % 60 ? '' : ' hour'}" data-drop="${h(tech.id)}|${at}" title="${h(tech.name)}, ${h(time(new Date(at)))}"></div>`;
  }).join('');
  const blocks = jobs.map((j) => {
    const p = placement(j);
    return block(j, `left:${p.left.toFixed(3)}%;width:${p.width.toFixed(3)}%`);
  });
  return `<div class="cal-track">${slots}${blocks.join('')}</div>`;
}

function weekCell(tech: Technician, day: string, jobs: BoardJob[]): string {
  const chips = jobs
    .sort((a, b) => a.scheduled_start!.localeCompare(b.scheduled_start!))
    .map((j) => {
      const hours = j.scheduled_end ? (Date.parse(j.scheduled_end) - Date.parse(j.scheduled_start!)) / 3_600_000 : 2;
      return block(j, `min-height:${Math.max(1, Math.min(hours, 8)) * 1.5}rem`);
    });
  const label = new Date(`${day}T00:00`).toLocaleDateString(undefined, {
    weekday: 'long',
    month: 'short',
    day: 'numeric',
  });
  return `<div class="cal-cell" data-drop="${h(tech.id)}|${day}" title="${h(tech.name)}, ${h(label)}">${chips.join('')}</div>`;
}

const onDay = (j: BoardJob, day: string) => !!j.scheduled_start && localDate(new Date(j.scheduled_start)) === day;

/** The calendar of `days` for every technician (jobs in stage `new` wait under Needs scheduling instead). */
export function calendarHtml(mode: CalendarMode, days: string[], jobs: BoardJob[], techs: Technician[]): string {
  const planned = jobs.filter((j) => j.stage.key !== 'new' && j.scheduled_start && j.technician);
  const head =
    mode === 'day'
      ? `<div class="cal-hours" aria-hidden="true">${Array.from(
          { length: LAST_HOUR - FIRST_HOUR },
          (_v, i) => `<span>${h(hourLabel(FIRST_HOUR + i))}</span>`,
        ).join('')}</div>`
      : `<div class="cal-days" aria-hidden="true">${days
          .map(
            (d) =>
              `<span>${h(new Date(`${d}T00:00`).toLocaleDateString(undefined, { weekday: 'short', day: 'numeric' }))}</span>`,
          )
          .join('')}</div>`;
  const rows = techs.map((t) => {
    const mine = planned.filter((j) => j.technician!.id === t.id);
    const body =
      mode === 'day'
        ? dayTrack(
            t,
            days[0]!,
            mine.filter((j) => onDay(j, days[0]!)),
          )
        : `<div class="cal-week">${days
            .map((d) =>
              weekCell(
                t,
                d,
                mine.filter((j) => onDay(j, d)),
              ),
            )
            .join('')}</div>`;
    return `<section class="cal-row" aria-label="${h(t.name)}"><h2 class="cal-tech">${h(t.name)}</h2>${body}</section>`;
  });
  return `<div class="cal cal-mode-${mode}"><div class="cal-row cal-head"><span class="cal-tech"></span>${head}</div>${rows.join('')}</div>`;
}

/** The job opened from its block: its own controls (technician, start, Reschedule), as on the list board. */
export const editorHtml = (j: BoardJob | undefined, techs: Technician[]) =>
  j
    ? `<section class="card" aria-labelledby="edit-h" id="job-editor"><h2 id="edit-h" style="margin-top:0">${h(jobTitle(j))}</h2><ul class="plain">${jobCard(j, techs, false)}</ul></section>`
    : '';

const shift = (day: string, by: number) => {
  const d = new Date(`${day}T00:00`);
  return localDate(new Date(d.getFullYear(), d.getMonth(), d.getDate() + by));
};

export interface CalendarPage {
  mode: CalendarMode;
  day: string;
  jobs: BoardJob[];
  needsScheduling: BoardJob[];
  techs: Technician[];
  dropTime: string;
  editing: BoardJob | undefined;
  msg: string;
}

/** The whole calendar screen: views and dates, the calendar, the opened job, Needs scheduling, unassigned jobs. */
export function calendarPageHtml(c: CalendarPage): string {
  const days = daysOf(c.mode, c.day);
  const step = c.mode === 'day' ? 1 : 7;
  const link = (mode: string, day: string, text: string, current = false) =>
    `<a href="/office/dispatch?view=${mode}&day=${day}"${current ? ' aria-current="page"' : ''}>${text}</a>`;
  const title =
    c.mode === 'day'
      ? new Date(`${c.day}T00:00`).toLocaleDateString(undefined, { weekday: 'long', month: 'long', day: 'numeric' })
      : `Week of ${new Date(`${days[0]}T00:00`).toLocaleDateString(undefined, { month: 'long', day: 'numeric' })}`;
  const unassigned = c.jobs.filter((j) => j.stage.key !== 'new' && !j.technician);
  return `<h1>Dispatch: ${h(title)}</h1>
<nav aria-label="Calendar" class="row cal-nav">${link('day', c.day, 'Day', c.mode === 'day')}${link('week', c.day, 'Week', c.mode === 'week')}${link('list', c.day, 'List')}
<span aria-hidden="true">·</span>${link(c.mode, shift(c.day, -step), `← Previous ${c.mode}`)}${link(c.mode, localDate(new Date()), 'Today')}${link(c.mode, shift(c.day, step), `Next ${c.mode} →`)}</nav>
<p id="office-msg" role="status">${h(c.msg)}</p>
<p class="muted" id="drag-hint">Drag a job to another time or technician${c.mode === 'week' ? ' (in the week, to another day: it keeps its time)' : ''}; drag a job from Needs scheduling onto the calendar. Or press a job to use its own controls.</p>
${c.techs.length ? calendarHtml(c.mode, days, c.jobs, c.techs) : '<p class="card">No technicians yet. Invite one (role technician) and their row appears here.</p>'}
${editorHtml(c.editing, c.techs)}
<label for="drop-time">Start time for jobs dropped on a technician without a time</label><input id="drop-time" type="time" value="${h(c.dropTime)}" style="width:auto">
<section class="column drop-target needs" aria-labelledby="col-needs" data-drop="unscheduled"><h2 id="col-needs">Needs scheduling (${c.needsScheduling.length})</h2>${jobList(c.needsScheduling, c.techs, 'Nothing waiting: new install jobs land here until they have a time.', false)}</section>
${unassigned.length ? `<section class="column" aria-labelledby="col-none"><h2 id="col-none">Scheduled, no technician (${unassigned.length})</h2>${jobList(unassigned, c.techs, '', false)}</section>` : ''}`;
}
