/**
 * The generator: occurrences within the horizon become real jobs (customer, address and windows of
 * the source job), once whatever is retried or run twice at once; a full month leaves the next one
 * waiting and says so; a downgrade stops it and removes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type JobsKit, startJobsKit } from '../jobs/jobs.test-support.js';
import { call, EVERY_6_MONTHS, tenantWithJob } from './recurring.test-support.js';

let kit: JobsKit;
const series = { rule: EVERY_6_MONTHS, title: 'every 6 months: motor check', horizon_months: 13 };

beforeAll(async () => {
  kit = await startJobsKit();
}, 180_000);
afterAll(async () => kit?.close());

const generator = () => kit.deps.recurring.generator;
const jobCount = async (token: string) =>
  (await call(kit, token)('GET', '/jobs?from=2000-01-01&to=2100-01-01&page_size=100')).json().total as number;

describe('generation', () => {
  it('makes the occurrences within the horizon into jobs of the same customer, address and windows, once', async () => {
    const a = await tenantWithJob(kit, 'gen-a', 'starter');
    const c = call(kit, a.token);
    expect((await c('POST', `/jobs/${a.job.id}/series`, series)).statusCode).toBe(201);
    // Two passes at once (two processes) and a retry: two occurrences (6 and 12 months on), made once.
    await Promise.all([generator().runAll(), generator().runAll()]);
    await generator().runAll();
    expect(await jobCount(a.token)).toBe(3);
    const s = (await c('GET', `/jobs/${a.job.id}/series`)).json().series;
    expect(s.occurrences).toHaveLength(2);
    const source = (await c('GET', `/jobs/${a.job.id}`)).json();
    for (const o of s.occurrences) {
      const job = (await c('GET', `/jobs/${o.job_id}`)).json();
      expect(job.customer.id).toBe(source.customer.id);
      expect(job.address).toEqual(source.address);
      expect(job.windows).toEqual(source.windows);
      expect(job.scheduled_start.slice(0, 10)).toBe(o.date);
      expect(job.scheduled_start.slice(11, 16)).toBe('15:00');
      // An occurrence is a normal job, and its Repeat section shows the series it belongs to.
      expect((await c('GET', `/jobs/${o.job_id}/series`)).json().series.id).toBe(s.id);
    }
    expect(s.next_dates.every((d: string) => d > s.occurrences.at(-1).date)).toBe(true);
  });

  it('applies a new rule only to occurrences not generated yet', async () => {
    const a = await tenantWithJob(kit, 'gen-edit', 'starter');
    const c = call(kit, a.token);
    await c('POST', `/jobs/${a.job.id}/series`, { ...series, horizon_months: 7 });
    await generator().runAll();
    const before = (await c('GET', `/jobs/${a.job.id}/series`)).json().series;
    expect(before.occurrences).toHaveLength(1);
    await c('PATCH', `/jobs/${a.job.id}/series`, { rule: 'FREQ=MONTHLY;INTERVAL=1', horizon_months: 8 });
    await generator().runAll();
    const after = (await c('GET', `/jobs/${a.job.id}/series`)).json().series;
    expect(after.occurrences[0]).toEqual(before.occurrences[0]);
    // Monthly from after the one made (month 6) up to the new horizon (8 months): month 7 only.
    expect(after.occurrences).toHaveLength(2);
  });

  it('makes nothing while paused', async () => {
    const a = await tenantWithJob(kit, 'gen-pause', 'starter');
    const c = call(kit, a.token);
    await c('POST', `/jobs/${a.job.id}/series`, series);
    await c('POST', `/jobs/${a.job.id}/series/pause`);
    await generator().runAll();
    expect(await jobCount(a.token)).toBe(1);
  });
});

describe("the month's job limit", () => {
  it('leaves the next occurrence waiting and says why; it is made when there is room', async () => {
    const a = await tenantWithJob(kit, 'gen-full', 'starter');
    const c = call(kit, a.token);
    await c('POST', `/jobs/${a.job.id}/series`, series);
    // Starter allows 100 jobs a month: the source job is one, 98 more leave room for one occurrence.
    await kit.t.db.transaction(async (q) => {
      for (let i = 0; i < 98; i++) await kit.deps.plans.reserveJob(q, a.id, new Date());
    });
    await generator().runAll();
    const s = (await c('GET', `/jobs/${a.job.id}/series`)).json().series;
    expect(s.occurrences).toHaveLength(1);
    expect(s.state).toBe('waiting');
    expect(s.reason).toMatch(/job limit \(100\)/);
    await kit.deps.plans.change(kit.t.db, a.id, 'professional');
    await generator().runAll();
    const later = (await c('GET', `/jobs/${a.job.id}/series`)).json().series;
    expect(later).toMatchObject({ state: 'active', reason: null });
    expect(later.occurrences).toHaveLength(2);
  });
});

describe('a downgrade', () => {
  it('stops new occurrences, says so, keeps the jobs made and refuses resuming', async () => {
    const a = await tenantWithJob(kit, 'gen-down', 'starter');
    const c = call(kit, a.token);
    await c('POST', `/jobs/${a.job.id}/series`, { ...series, horizon_months: 7 });
    await generator().runAll();
    await kit.deps.plans.change(kit.t.db, a.id, 'free');
    await c('PATCH', `/jobs/${a.job.id}/series`, { horizon_months: 24 });
    await generator().runAll();
    const s = (await c('GET', `/jobs/${a.job.id}/series`)).json().series;
    expect(s.state).toBe('paused_by_plan');
    expect(s.reason).toMatch(/your plan no longer includes recurring jobs/);
    expect(s.occurrences).toHaveLength(1);
    expect((await c('GET', `/jobs/${s.occurrences[0].job_id}`)).statusCode).toBe(200);
    expect(await jobCount(a.token)).toBe(2);
    const resume = await c('POST', `/jobs/${a.job.id}/series/resume`);
    expect(resume.statusCode).toBe(403);
    expect(resume.json()).toMatchObject({ code: 'PLAN_FEATURE_MISSING', required_plan: 'starter' });
    expect((await c('POST', `/jobs/${a.job.id}/series/pause`)).json().state).toBe('paused');
  });
});
