/** Test support of recurring jobs: a tenant with its ERP and a job scheduled tomorrow. Test code only. */
import type { JobsKit } from '../jobs/jobs.test-support.js';

const DAY = 86_400_000;

/** A job starting tomorrow at 15:00 UTC (so the occurrences a rule gives do not depend on today). */
export function tomorrowJob(): { scheduled_start: string; scheduled_end: string } {
  const d = new Date(Date.now() + DAY);
  const day = d.toISOString().slice(0, 10);
  return { scheduled_start: `${day}T15:00:00.000Z`, scheduled_end: `${day}T17:00:00.000Z` };
}

export async function tenantWithJob(kit: JobsKit, slug: string, plan: string) {
  const t = await kit.tenant(slug, plan);
  await kit.erpFor(t.id);
  const job = await kit.createJob(t.token, tomorrowJob());
  return { ...t, job };
}

/** inject() as `token`. */
export function call(kit: JobsKit, token: string) {
  return (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: Record<string, unknown>) =>
    kit.app.inject({ method, url, headers: kit.auth(token), ...(payload === undefined ? {} : { payload }) });
}

export const EVERY_6_MONTHS = 'FREQ=MONTHLY;INTERVAL=6';
