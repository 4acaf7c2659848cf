/**
 * Dispatch: a calendar (a day or a week, technicians against hours; calendar.view.ts) on screens
 * 700 px and wider, the list board (board.view.ts) on phones or with ?view=list, and the jobs that
 * need scheduling under either. Assigning and
 * (re)scheduling go through POST /jobs/{id}/assign and /schedule with the version the board showed
 * (If-Match) and an Idempotency-Key; a 409 JOB_CONFLICT is said and the board reloaded, never
 * overwritten. Dragging a card does exactly what the card's own controls do.
 */
import { ApiError, call, postJson } from '../field/api.js';
import { $, uuid } from '../shared/dom.js';
import { type BoardJob, boardView, jobTitle } from './board.view.js';
import { branchChanged, branchFilterHtml, branchQuery, loadBranches } from './branch-filter.js';
import { type CalendarMode, calendarPageHtml, daysOf, localDate } from './calendar.view.js';
import { enableDragDrop } from './drag-drop.js';
import { explain, say, technicians } from './office-common.js';
import type { OfficePage } from './office-page.js';

const TWO_HOURS = 7_200_000;
const params = new URLSearchParams(location.search);
let day = /^\d{4}-\d{2}-\d{2}$/.test(params.get('day') ?? '') ? params.get('day')! : localDate(new Date());
const asked = params.get('view');
let dropTime = '09:00';
let shown: BoardJob[] = [];
let wired = false;
/** The job opened from its calendar block (its controls shown under the calendar). */
let editing: string | undefined;

/** The calendar needs room: under 700 px (a phone) the list board is shown whatever was asked. */
const viewNow = (): CalendarMode | 'list' =>
  asked === 'list' || matchMedia('(max-width: 699px)').matches ? 'list' : asked === 'week' ? 'week' : 'day';

const job = (id: string) => shown.find((j) => j.id === id);
const lengthOf = (j: BoardJob) =>
  j.scheduled_start && j.scheduled_end ? Date.parse(j.scheduled_end) - Date.parse(j.scheduled_start) : TWO_HOURS;

/** Sends one change to a job with the version this board last saw; answers the job as it is now. */
async function write(j: BoardJob, what: 'assign' | 'schedule' | 'stage', body: object): Promise<BoardJob> {
  const next = await postJson<BoardJob>(`/jobs/${encodeURIComponent(j.id)}/${what}`, body, {
    'idempotency-key': uuid(),
    'if-match': j.version,
  });
  shown = shown.map((x) => (x.id === j.id ? next : x));
  return next;
}

const schedule = (j: BoardJob, start: Date) =>
  write(j, 'schedule', {
    scheduled_start: start.toISOString(),
    scheduled_end: new Date(start.getTime() + lengthOf(j)).toISOString(),
  });

const at = (d: Date) =>
  d.toLocaleString(undefined, { weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/**
 * Where a calendar drop puts the job: a half-hour slot (`YYYY-MM-DDTHH:MM`) is its start; a week's day
 * (`YYYY-MM-DD`) keeps its time of day (the drop time for a job without one).
 */
function startAt(j: BoardJob, when: string): Date {
  if (when.includes('T')) return new Date(when);
  const was = j.scheduled_start ? new Date(j.scheduled_start) : undefined;
  const hhmm = was
    ? `${String(was.getHours()).padStart(2, '0')}:${String(was.getMinutes()).padStart(2, '0')}`
    : dropTime;
  return new Date(`${when}T${hhmm || '09:00'}`);
}

/**
 * A drop onto a technician assigns the job (a job that needs scheduling is also put on the board's
 * day); onto a calendar slot or day, also moves it there.
 */
async function dropped(app: HTMLElement, id: string, target: string): Promise<void> {
  let j = job(id);
  if (!j) return;
  try {
    if (target === 'unscheduled') {
      if (j.stage.key === 'new') return;
      await write(j, 'stage', { stage: 'new' });
      return await dispatchPage.show(app, `${jobTitle(j)}: back to needs scheduling.`);
    }
    const [tech, when] = target.split('|') as [string, string | undefined];
    const said: string[] = [];
    if (j.technician?.id !== tech) {
      j = await write(j, 'assign', { technician_id: tech });
      said.push(`assigned to ${j.technician?.name ?? 'the technician'}`);
    }
    const start = when ? startAt(j, when) : undefined;
    if (start && start.getTime() !== Date.parse(j.scheduled_start ?? '')) {
      j = await schedule(j, start);
      said.push(`${j.stage.key === 'new' ? 'scheduled' : 'moved'} to ${at(start)}`);
    } else if (!start && (j.stage.key === 'new' || !j.scheduled_start)) {
      const first = new Date(`${day}T${dropTime || '09:00'}`);
      j = await schedule(j, first);
      said.push(`scheduled for ${at(first)}`);
    }
    await dispatchPage.show(app, said.length ? `${jobTitle(j)}: ${said.join(' and ')}.` : '');
  } catch (e) {
    await refused(app, j, e);
  }
}

/** Redraws the board as it is now and says, as an error, why the change was refused. */
async function refused(app: HTMLElement, j: BoardJob | undefined, e: unknown): Promise<void> {
  await dispatchPage.show(app);
  say(`${j ? `${jobTitle(j)}: ` : ''}${explain(e)}`, 'office-msg', 'err');
}

/** Runs a change and redraws the board with its outcome, or with why it was refused (a conflict reloads). */
async function act(app: HTMLElement, j: BoardJob, change: () => Promise<string>): Promise<void> {
  let msg: string;
  try {
    msg = await change();
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return refused(app, j, e);
  }
  await dispatchPage.show(app, msg);
}

export const dispatchPage: OfficePage = {
  async show(app, msg = '') {
    const view = viewNow();
    const days = daysOf(view === 'week' ? 'week' : 'day', day);
    const from = new Date(`${days[0]}T00:00`).toISOString();
    const to = new Date(new Date(`${days[days.length - 1]}T00:00`).getTime() + 86_400_000).toISOString();
    const [today, waiting, techs, branches] = await Promise.all([
      call<{ items: BoardJob[] }>(
        view === 'list'
          ? `/jobs?date=${day}&page_size=100${branchQuery()}`
          : `/jobs?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&page_size=100${branchQuery()}`,
      ),
      call<{ items: BoardJob[] }>(`/jobs?stage=new&page_size=100${branchQuery()}`),
      technicians(),
      loadBranches(),
    ]);
    shown = [...today.items, ...waiting.items.filter((w) => !today.items.some((t) => t.id === w.id))];
    const page =
      view === 'list'
        ? boardView(day, today.items, waiting.items, techs, dropTime, msg)
        : calendarPageHtml({
            mode: view,
            day,
            jobs: today.items,
            needsScheduling: waiting.items,
            techs,
            dropTime,
            editing: editing ? job(editing) : undefined,
            msg,
          });
    // The branch filter sits under the page's heading.
    app.innerHTML = page.replace('</h1>', `</h1>${branchFilterHtml(branches)}`);
    if (!wired) {
      wired = true;
      enableDragDrop(app, (id, target) => dropped(app, id, target));
    }
  },
  async submit(form, app) {
    if (form.id !== 'day-form') return;
    day = $<HTMLInputElement>('#day')!.value || day;
    const branch = new URLSearchParams(location.search).get('branch');
    history.replaceState(null, '', `?${asked ? `view=${asked}&` : ''}day=${day}${branch ? `&branch=${branch}` : ''}`);
    await this.show(app);
  },
  async change(el, app) {
    if (branchChanged(el)) return this.show(app);
    if (el.id === 'drop-time') dropTime = el.value;
    const j = el.dataset.assign && el.value ? job(el.dataset.assign) : undefined;
    if (!j) return;
    await act(app, j, async () => {
      await write(j, 'assign', { technician_id: el.value });
      return 'Technician assigned.';
    });
  },
  async click(b, app) {
    if (b.dataset.edit) {
      editing = b.dataset.edit;
      await this.show(app);
      return $<HTMLSelectElement>(`#assign-${CSS.escape(editing)}`)?.focus();
    }
    const j = job(b.dataset.reschedule ?? b.dataset.unschedule ?? '');
    if (!j) return;
    if (b.dataset.unschedule) return dropped(app, j.id, 'unscheduled');
    const value = $<HTMLInputElement>(`#start-${CSS.escape(j.id)}`)!.value;
    if (!value) return void this.show(app, 'Choose a start first.');
    await act(app, j, async () => {
      await schedule(j, new Date(value));
      return j.stage.key === 'new' ? 'Scheduled.' : 'Rescheduled.';
    });
  },
};
