/**
 * The field app: routes by path (/field/login, /field/jobs, /field/jobs/:id), renders from what
 * the phone keeps in IndexedDB, refreshes my jobs when online, and queues every change (sync.ts
 * sends them). Registers the service worker that keeps the shell for offline starts.
 */
import SignaturePad from 'signature_pad';

import { $, uuid } from '../shared/dom.js';
import { resizePhoto } from '../shared/photo.js';
import { ApiError, login, OfflineError, SignedOutError } from './api.js';
import { forgetCalendarLink, renderCalendar, wireCalendar } from './calendar.js';
import { refreshJobs, route, sortJobs } from './jobs.js';
import { measureSection, photosOfWindows } from './measure.view.js';
import { wireMeasuring } from './measure-events.js';
import { partsFromForm, partsUsedSection } from './parts-used.js';
import {
  adoptLegacy,
  allJobs,
  clearSession,
  enqueue,
  getJob,
  getMeasure,
  getParts,
  getSession,
  ownerOf,
  queued,
  queuedFor,
} from './store.js';
import { onSyncChange, resolveConflict, syncNow } from './sync.js';
import { syncedPhotoUrls } from './synced-photos.js';
import type { Change } from './types.js';
import { detailView, listView, loginView } from './views.js';

const app = $('#app')!;
const tenantSlug = document.body.dataset.tenantSlug ?? '';
let pad: SignaturePad | undefined;
const objectUrls: string[] = [];
/** The changes the person who just signed out left waiting (the sign-in screen tells them they are kept). */
let leftWaiting = 0;

const go = (path: string) => {
  history.pushState(null, '', path);
  void render();
};

async function render(): Promise<void> {
  $('#net')!.hidden = navigator.onLine;
  const r = route();
  const session = await getSession();
  if (!session && r.name !== 'login') return go('/field/login');
  if (r.name === 'login') {
    app.innerHTML = loginView('', leftWaiting);
    return;
  }
  leftWaiting = 0;
  objectUrls.splice(0).forEach((u) => URL.revokeObjectURL(u));
  if (r.name === 'calendar') return renderCalendar(app);
  forgetCalendarLink();
  const owner = ownerOf(session!);
  const queue = await queued(owner);
  if (r.name === 'list') {
    app.innerHTML = listView(
      sortJobs(await allJobs(owner)),
      queue,
      navigator.onLine,
      session!.user.name || session!.user.email,
    );
    return;
  }
  const job = await getJob(owner, r.id);
  if (!job) {
    app.innerHTML = `<p><a href="/field/jobs">← My jobs</a></p><h1>Job not found</h1><p>This job is not assigned to you, or it is not on this phone yet.</p>`;
    return;
  }
  const items = queue.filter((q) => q.jobId === job.id);
  for (const q of items)
    if (q.change.kind === 'upload' && q.change.uploadKind !== 'signature')
      objectUrls.push(URL.createObjectURL(q.change.blob));
  const sent = await syncedPhotoUrls(job, navigator.onLine);
  const measure = job.kind === 'measure' ? await getMeasure(owner, job.id) : undefined;
  // A re-render (a sync finished, the signal went) must not wipe what the technician is typing or the
  // customer is signing: read both after the last await, so nothing typed during it is lost.
  const typed = Array.from(app.querySelectorAll<HTMLTextAreaElement>('textarea[id]')).map(
    (t) => [t.id, t.value] as const,
  );
  const strokes = pad && !pad.isEmpty() ? pad.toData() : undefined;
  // The measuring form itself is kept across the re-render (what is typed, ticked and focused).
  const measuring = $(`#measure-form[data-job="${CSS.escape(job.id)}"]`, app);
  const focused = document.activeElement?.id;
  const section =
    job.kind === 'measure'
      ? measureSection(job, measure, items, photosOfWindows(items))
      : partsUsedSection(job, await getParts(owner), items);
  app.innerHTML = detailView(job, items, navigator.onLine, objectUrls, sent, section);
  if (measuring) $('#measure-form', app)?.replaceWith(measuring);
  if (focused && measuring?.contains(document.getElementById(focused))) document.getElementById(focused)?.focus();
  for (const [id, value] of typed) {
    const t = document.getElementById(id);
    if (t instanceof HTMLTextAreaElement) t.value = value;
  }
  const canvas = $<HTMLCanvasElement>('#sig');
  if (canvas) {
    const ratio = Math.max(window.devicePixelRatio || 1, 1);
    canvas.width = canvas.offsetWidth * ratio;
    canvas.height = canvas.offsetHeight * ratio;
    canvas.getContext('2d')!.scale(ratio, ratio);
    pad = new SignaturePad(canvas, { backgroundColor: 'rgb(255,255,255)' });
    if (strokes) pad.fromData(strokes);
  } else pad = undefined;
}

async function change(jobId: string, c: Change): Promise<void> {
  const session = await getSession();
  if (!session) return go('/field/login');
  const owner = ownerOf(session);
  await enqueue({ owner, jobId, change: c, key: uuid(), createdAt: Date.now(), state: 'pending', attempts: 0 });
  await render();
  void syncNow();
}

app.addEventListener('submit', async (e) => {
  e.preventDefault();
  const form = e.target as HTMLFormElement;
  const r = route();
  if (form.id === 'login') {
    const email = $<HTMLInputElement>('#email')!.value.trim();
    const password = $<HTMLInputElement>('#password')!.value;
    const msg = $('#login-msg')!;
    if (!email || !password) return void (msg.textContent = 'Enter your email and password.');
    try {
      await adoptLegacy(await login(email, password, tenantSlug));
      // What this person left waiting on the phone goes now, before their list is fetched.
      await syncNow();
      await refreshJobs();
      go('/field/jobs');
    } catch (err) {
      msg.textContent =
        err instanceof OfflineError
          ? 'No connection: sign in once you have signal.'
          : err instanceof ApiError && err.status === 401
            ? 'Wrong email or password.'
            : err instanceof ApiError
              ? (err.problem.detail ?? 'Sign-in refused.')
              : 'Sign-in failed.';
    }
    return;
  }
  if (r.name !== 'job') return;
  if (form.id === 'note-form') {
    const body = $<HTMLTextAreaElement>('#note')!.value.trim();
    if (!body) return;
    $<HTMLTextAreaElement>('#note')!.value = '';
    await change(r.id, { kind: 'note', body });
  }
  if (form.id === 'parts-form') {
    const session = await getSession();
    const parts = partsFromForm(form, session ? await getParts(ownerOf(session)) : undefined);
    if (typeof parts === 'string') return void ($('#parts-msg')!.textContent = parts);
    await change(r.id, { kind: 'parts-used', parts });
  }
  if (form.id === 'complete-form') {
    const resolution = $<HTMLTextAreaElement>('#resolution')!.value.trim();
    if (!resolution) return void ($('#complete-msg')!.textContent = 'Write what was done before completing.');
    await change(r.id, { kind: 'complete', resolution });
  }
});

app.addEventListener('click', async (e) => {
  const t = (e.target as HTMLElement).closest<HTMLElement>('button,a');
  if (!t) return;
  if (t instanceof HTMLAnchorElement && t.pathname.startsWith('/field/') && t.origin === location.origin) {
    e.preventDefault();
    return go(t.pathname);
  }
  const r = route();
  if (t.id === 'logout') {
    const session = await getSession();
    leftWaiting = session ? (await queued(ownerOf(session))).length : 0;
    await clearSession();
    return go('/field/login');
  }
  if (r.name !== 'job') return;
  if (t.dataset.stage) {
    const eta = Number(t.dataset.eta) || undefined;
    await change(r.id, {
      kind: 'stage',
      stage: t.dataset.stage as 'travel' | 'on_site',
      ...(eta ? { etaMinutes: eta } : {}),
    });
  }
  if (t.id === 'sig-clear') pad?.clear();
  if (t.id === 'sig-save' && pad && !pad.isEmpty()) {
    // Straight from the canvas: a data: URL fetch is refused while offline.
    const canvas = $<HTMLCanvasElement>('#sig')!;
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
    if (!blob) return;
    pad.clear();
    await change(r.id, { kind: 'upload', uploadKind: 'signature', blob, contentType: 'image/png' });
  }
  if (t.dataset.resolve) {
    const session = await getSession();
    if (!session) return go('/field/login');
    const item = (await queuedFor(ownerOf(session), r.id)).find((q) => q.state !== 'pending');
    if (item) await resolveConflict(item, t.dataset.resolve as 'discard' | 'resend');
    void syncNow();
  }
});

app.addEventListener('change', async (e) => {
  const input = e.target as HTMLInputElement;
  const r = route();
  if (r.name !== 'job') return;
  if (input.dataset.check) {
    const id = input.dataset.check;
    const session = await getSession();
    const job = session && (await getJob(ownerOf(session), r.id));
    const itemId = job?.checklist.find((c) => String(c.id) === id)?.id ?? id;
    await change(r.id, { kind: 'checklist', itemId, done: input.checked });
  }
  const file = input.files?.[0];
  if (file && input.dataset.kind) {
    const blob = await resizePhoto(file);
    await change(r.id, {
      kind: 'upload',
      uploadKind: input.dataset.kind as 'photo_before',
      blob,
      contentType: 'image/jpeg',
    });
  }
});

wireCalendar(app, () => route().name === 'calendar');
wireMeasuring(
  app,
  () => {
    const r = route();
    return r.name === 'job' ? r.id : undefined;
  },
  change,
);

async function online(): Promise<void> {
  $('#net')!.hidden = navigator.onLine;
  if (!navigator.onLine) return;
  const outcome = await syncNow();
  if (outcome === 'signed-out') return go('/field/login');
  if (outcome === 'idle' && (await getSession()))
    await refreshJobs().catch((err) => (err instanceof SignedOutError ? go('/field/login') : undefined));
  await render();
}

window.addEventListener('popstate', () => void render());
window.addEventListener('online', () => void online());
window.addEventListener('offline', () => void render());
// A long queue reports progress after every change: redraw at most every 200 ms, not 200 times.
let redraw: ReturnType<typeof setTimeout> | undefined;
onSyncChange(() => {
  redraw ??= setTimeout(() => {
    redraw = undefined;
    void render();
  }, 200);
});
setInterval(() => void (navigator.onLine && syncNow()), 20_000);
if ('serviceWorker' in navigator)
  void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
void render().then(online);
