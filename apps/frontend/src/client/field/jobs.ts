/** Where the app is (by path), and my jobs: fetched when online, kept in IndexedDB, shown in route order. */
import type { MeasurementsAnswer } from '@platform/contracts/measurement.js';

import { call } from './api.js';
import { refreshParts } from './parts-used.js';
import { getSession, ownerOf, putMeasure, replaceJobs } from './store.js';
import type { Job } from './types.js';

export function route(): { name: 'login' } | { name: 'list' } | { name: 'calendar' } | { name: 'job'; id: string } {
  const m = /^\/field\/jobs\/([^/]+)$/.exec(location.pathname);
  if (m) return { name: 'job', id: decodeURIComponent(m[1]!) };
  if (location.pathname === '/field/calendar') return { name: 'calendar' };
  return location.pathname === '/field/login' ? { name: 'login' } : { name: 'list' };
}

export const sortJobs = (jobs: Job[]) =>
  jobs.sort(
    (a, b) =>
      (a.scheduled_start ?? '').slice(0, 10).localeCompare((b.scheduled_start ?? '').slice(0, 10)) ||
      a.route_order - b.route_order ||
      (a.scheduled_start ?? '').localeCompare(b.scheduled_start ?? ''),
  );

/** Today's and later jobs assigned to me; kept on the phone for the basement, as mine. */
export async function refreshJobs(): Promise<void> {
  const s = await getSession();
  if (!s) return;
  const owner = ownerOf(s);
  const today = new Date();
  const from = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
  const page = await call<{ items: Job[] }>(`/jobs?from=${from}&page_size=100`, { owner });
  await replaceJobs(owner, page.items);
  // The stocked parts come along too, so parts used are recorded without signal. Not having them
  // (no signal since, another error) keeps what the phone had and never holds up the jobs.
  if (page.items.some((j) => j.kind === 'install')) await refreshParts(owner).catch(() => undefined);
  // A measure job's windows and the grids come along, so measuring and pricing work without signal.
  for (const j of page.items.filter((x) => x.kind === 'measure')) {
    const m = await call<MeasurementsAnswer>(`/jobs/${encodeURIComponent(j.id)}/measurements`, { owner });
    await putMeasure({ ...m, owner, jobId: j.id });
  }
}
