/**
 * The office views: the leads inbox (GET /crm/leads; call, move to a stage, convert) and the
 * dispatch board (GET /jobs?date=, by technician; assign and reschedule with form controls, so the
 * keyboard works as well as a mouse). Signed in through the same control-plane session as the field app.
 */
import { ApiError, call, login, OfflineError, postJson, SignedOutError } from '../field/api.js';
import { clearSession, getSession } from '../field/store.js';
import { loginView } from '../field/views.js';
import { $, uuid } from '../shared/dom.js';
import { type BoardJob, boardView, type Lead, leadsView, type Stage } from './views.js';

const app = $('#app')!;
const tenantSlug = document.body.dataset.tenantSlug ?? '';
let day = new Date().toISOString().slice(0, 10);
let board: BoardJob[] = [];

const explain = (e: unknown) =>
  e instanceof OfflineError
    ? 'No connection: try again.'
    : e instanceof ApiError
      ? (e.problem.detail ?? `Refused (HTTP ${e.status})`)
      : String(e);

async function technicians(): Promise<{ id: string; name: string }[]> {
  const s = await getSession();
  try {
    const users = await call<{ items: { id: string; name?: string; email: string; role: string }[] }>(
      `/api/tenants/${encodeURIComponent(s!.tenant.id)}/users?page_size=100`,
    );
    return users.items.filter((u) => u.role === 'technician').map((u) => ({ id: u.id, name: u.name ?? u.email }));
  } catch {
    // Office staff may not list users: the technicians of the next two weeks' jobs will do.
    const to = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
    const jobs = await call<{ items: BoardJob[] }>(`/jobs?from=${day}&to=${to}&page_size=100`);
    const seen = new Map(jobs.items.filter((j) => j.technician).map((j) => [j.technician!.id, j.technician!.name]));
    return [...seen].map(([id, name]) => ({ id, name }));
  }
}

async function render(msg = ''): Promise<void> {
  if (!(await getSession())) {
    app.innerHTML = loginView();
    return;
  }
  try {
    if (location.pathname === '/office/dispatch') {
      board = (await call<{ items: BoardJob[] }>(`/jobs?date=${day}&page_size=100`)).items;
      app.innerHTML = boardView(day, board, await technicians(), msg);
    } else {
      const [leads, stages] = await Promise.all([
        call<{ items: Lead[] }>('/crm/leads?page_size=50'),
        call<{ items: Stage[] }>('/crm/stages').catch(() => ({ items: [] as Stage[] })),
      ]);
      app.innerHTML = leadsView(leads.items, stages.items, msg);
    }
  } catch (e) {
    if (e instanceof SignedOutError) return render();
    if (e instanceof ApiError && e.status === 403) {
      app.innerHTML =
        '<h1>Office only</h1><p>These views are for office staff and owners.</p><button class="btn secondary" id="logout" type="button">Sign out</button>';
      return;
    }
    app.innerHTML = `<p class="err" role="alert">${explain(e)}</p>`;
  }
}

app.addEventListener('submit', async (e) => {
  e.preventDefault();
  const form = e.target as HTMLFormElement;
  if (form.id === 'login') {
    try {
      await login($<HTMLInputElement>('#email')!.value.trim(), $<HTMLInputElement>('#password')!.value, tenantSlug);
      await render();
    } catch (err) {
      $('#login-msg')!.textContent =
        err instanceof ApiError && err.status === 401 ? 'Wrong email or password.' : explain(err);
    }
  }
  if (form.id === 'day-form') {
    day = $<HTMLInputElement>('#day')!.value || day;
    await render();
  }
});

const job = (id: string) => board.find((j) => j.id === id);
const writeHeaders = (id: string) => ({
  'idempotency-key': uuid(),
  ...(job(id) ? { 'if-match': job(id)!.version } : {}),
});

app.addEventListener('change', async (e) => {
  const el = e.target as HTMLSelectElement;
  try {
    if (el.dataset.leadStage) {
      await call(`/crm/leads/${el.dataset.leadStage}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ stage_id: Number(el.value) }),
      });
      await render('Stage saved.');
    }
    if (el.dataset.assign && el.value) {
      await postJson(
        `/jobs/${encodeURIComponent(el.dataset.assign)}/assign`,
        { technician_id: el.value },
        writeHeaders(el.dataset.assign),
      );
      await render('Technician assigned.');
    }
  } catch (err) {
    await render(explain(err));
  }
});

app.addEventListener('click', async (e) => {
  const t = (e.target as HTMLElement).closest<HTMLElement>('button');
  if (!t) return;
  try {
    if (t.id === 'logout') {
      await clearSession();
      return render();
    }
    if (t.dataset.convert) {
      await postJson(`/crm/leads/${t.dataset.convert}/convert`, {}, { 'idempotency-key': uuid() });
      await render('Converted to an opportunity.');
    }
    if (t.dataset.reschedule) {
      const id = t.dataset.reschedule;
      const value = $<HTMLInputElement>(`#start-${CSS.escape(id)}`)!.value;
      const j = job(id);
      if (!value || !j) return;
      const start = new Date(value);
      const length =
        j.scheduled_start && j.scheduled_end ? Date.parse(j.scheduled_end) - Date.parse(j.scheduled_start) : 7_200_000;
      await postJson(
        `/jobs/${encodeURIComponent(id)}/schedule`,
        { scheduled_start: start.toISOString(), scheduled_end: new Date(start.getTime() + length).toISOString() },
        writeHeaders(id),
      );
      await render('Rescheduled.');
    }
  } catch (err) {
    await render(explain(err));
  }
});

void render();
