/**
 * /field/calendar: the technician's calendar feed (GET/POST/DELETE /technicians/me/calendar-feed).
 * "Get my calendar link" makes a secret URL their phone's calendar subscribes to (shown once: only
 * its hash is kept); "New link" replaces it (the old one stops), "Turn off" revokes it. Needs signal.
 * Each press is one Idempotency-Key: a press whose answer was lost, pressed again, gets the same URL
 * instead of rotating twice (the key changes once an answer arrives).
 */
import { $, h, uuid } from '../shared/dom.js';
import { ApiError, call, OfflineError } from './api.js';

interface FeedState {
  active: boolean;
  created_at: string | null;
  url?: string;
}

const PATH = '/technicians/me/calendar-feed';
/** The URL just made, kept across re-renders (a sync redraws the page) until the page is left. */
let shown: string | undefined;
let makeKey = uuid();

function view(s: FeedState | undefined, msg: string): string {
  const url = shown;
  const state = !s
    ? '<p>Connect to the internet to manage your calendar link.</p>'
    : s.active
      ? `<p>Your calendar link is on since ${h(new Date(s.created_at!).toLocaleDateString())}.</p>`
      : '<p>Your jobs can appear in your phone’s calendar: get your private link and subscribe to it.</p>';
  const link = url
    ? `<div class="card"><label for="calendar-url">Your private calendar link</label><input id="calendar-url" readonly value="${h(url)}">
<p><a class="btn" href="${h(url.replace(/^https?:/, 'webcal:'))}">Subscribe in my calendar</a></p>
<p class="muted">Keep it to yourself: anyone with it sees your jobs. It is shown only now.</p></div>`
    : '';
  const buttons = !s
    ? ''
    : `<div class="row"><button class="btn${s.active ? ' secondary' : ''}" type="button" data-calendar="make">${s.active ? 'New link (the old one stops)' : 'Get my calendar link'}</button>${
        s.active ? '<button class="btn secondary" type="button" data-calendar="off">Turn off</button>' : ''
      }</div>`;
  return `<p><a href="/field/jobs">← My jobs</a></p><h1>Calendar</h1><p id="calendar-msg" role="status">${h(msg)}</p>${state}${link}${buttons}`;
}

export async function renderCalendar(app: HTMLElement, msg = ''): Promise<void> {
  let s: FeedState | undefined;
  try {
    s = navigator.onLine ? await call<FeedState>(PATH) : undefined;
  } catch (e) {
    if (!(e instanceof OfflineError)) throw e;
  }
  app.innerHTML = view(s, msg);
}

/** Leaving the page forgets the link shown. */
export const forgetCalendarLink = () => (shown = undefined);

export function wireCalendar(app: HTMLElement, onPage: () => boolean): void {
  app.addEventListener('click', async (e) => {
    const b = (e.target as HTMLElement).closest<HTMLButtonElement>('button[data-calendar]');
    if (!b || !onPage()) return;
    try {
      if (b.dataset.calendar === 'make') {
        shown = (await call<FeedState>(PATH, { method: 'POST', headers: { 'idempotency-key': makeKey } })).url;
        makeKey = uuid();
        await renderCalendar(app, 'Your calendar link is ready.');
        return $<HTMLInputElement>('#calendar-url')?.select();
      }
      shown = undefined;
      await call<FeedState>(PATH, { method: 'DELETE' });
      await renderCalendar(app, 'Calendar link turned off: it no longer works.');
    } catch (err) {
      const text =
        err instanceof OfflineError
          ? 'No connection: try again once you have signal.'
          : err instanceof ApiError
            ? (err.problem.detail ?? 'Refused.')
            : 'Something went wrong.';
      $('#calendar-msg')!.textContent = text;
    }
  });
}
