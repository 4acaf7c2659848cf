/**
 * /jobs/{id}/series: the plan gate (Free refused naming Starter), rule validation naming `rule`,
 * one series per job, edits, pause/resume/end, and another tenant refused everywhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type JobsKit, startJobsKit } from '../jobs/jobs.test-support.js';
import { call, EVERY_6_MONTHS, tenantWithJob } from './recurring.test-support.js';

let kit: JobsKit;
let a: Awaited<ReturnType<typeof tenantWithJob>>;
let b: Awaited<ReturnType<typeof tenantWithJob>>;
let free: Awaited<ReturnType<typeof tenantWithJob>>;

beforeAll(async () => {
  kit = await startJobsKit();
  a = await tenantWithJob(kit, 'rec-a', 'starter');
  b = await tenantWithJob(kit, 'rec-b', 'starter');
  free = await tenantWithJob(kit, 'rec-free', 'free');
}, 180_000);
afterAll(async () => kit?.close());

const series = { rule: EVERY_6_MONTHS, title: 'every 6 months: motor check', horizon_months: 13 };

describe('the plan gate', () => {
  it('refuses a series on Free with PLAN_FEATURE_MISSING naming Starter, and says so on GET', async () => {
    const res = await call(kit, free.token)('POST', `/jobs/${free.job.id}/series`, series);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'PLAN_FEATURE_MISSING', required_plan: 'starter' });
    const got = await call(kit, free.token)('GET', `/jobs/${free.job.id}/series`);
    expect(got.json()).toEqual({ series: null, feature: { included: false, required_plan: 'starter' } });
  });
});

describe('rules', () => {
  it.each([
    ['not a rule', 'every year'],
    ['hourly', 'FREQ=HOURLY'],
    ['no FREQ', 'INTERVAL=2'],
    ['own DTSTART', 'DTSTART:20260101T000000Z\nRRULE:FREQ=YEARLY'],
  ])('refuses %s with 422 naming rule', async (_, rule) => {
    const res = await call(kit, a.token)('POST', `/jobs/${a.job.id}/series`, { ...series, rule });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual([expect.objectContaining({ field: 'rule', rule: 'rrule' })]);
  });

  it('previews the next dates of a rule', async () => {
    const res = await call(kit, a.token)('POST', `/jobs/${a.job.id}/series/preview`, { rule: EVERY_6_MONTHS });
    expect(res.statusCode).toBe(200);
    const dates: string[] = res.json().dates;
    expect(dates).toHaveLength(5);
    expect(dates[0]!.slice(11)).toBe('15:00:00.000Z');
  });
});

describe('a series', () => {
  it('is made once per job, with its next dates', async () => {
    const res = await call(kit, a.token)('POST', `/jobs/${a.job.id}/series`, {
      ...series,
      rule: `RRULE:${EVERY_6_MONTHS}`,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ job_id: a.job.id, rule: EVERY_6_MONTHS, state: 'active', reason: null });
    expect(res.json().next_dates).toHaveLength(5);
    const again = await call(kit, a.token)('POST', `/jobs/${a.job.id}/series`, series);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('JOB_SERIES_EXISTS');
  });

  it('is edited as a whole, paused, resumed and ended for good', async () => {
    const c = call(kit, a.token);
    const edited = await c('PATCH', `/jobs/${a.job.id}/series`, { rule: 'FREQ=YEARLY', title: 'yearly clean' });
    expect(edited.json()).toMatchObject({ rule: 'FREQ=YEARLY', title: 'yearly clean' });
    expect((await c('PATCH', `/jobs/${a.job.id}/series`, {})).statusCode).toBe(422);
    expect((await c('POST', `/jobs/${a.job.id}/series/pause`)).json()).toMatchObject({ state: 'paused' });
    expect((await c('POST', `/jobs/${a.job.id}/series/resume`)).json()).toMatchObject({ state: 'active' });
    const ended = await c('POST', `/jobs/${a.job.id}/series/end`);
    expect(ended.json()).toMatchObject({ state: 'ended', next_dates: [] });
    const resume = await c('POST', `/jobs/${a.job.id}/series/resume`);
    expect(resume.statusCode).toBe(409);
    expect(resume.json().code).toBe('JOB_SERIES_ENDED');
  });

  it('is refused to a technician', async () => {
    const tech = await kit.member(b.id, 'technician');
    const res = await call(kit, tech.token)('POST', `/jobs/${b.job.id}/series`, series);
    expect(res.statusCode).toBe(403);
  });
});

describe('another tenant', () => {
  it("cannot read, make, change or stop A's series", async () => {
    const c = call(kit, b.token);
    const id = a.job.id;
    for (const [method, url, body] of [
      ['GET', `/jobs/${id}/series`],
      ['POST', `/jobs/${id}/series/preview`, { rule: 'FREQ=YEARLY' }],
      ['POST', `/jobs/${id}/series`, series],
      ['PATCH', `/jobs/${id}/series`, { title: 'taken over' }],
      ['POST', `/jobs/${id}/series/pause`],
      ['POST', `/jobs/${id}/series/resume`],
      ['POST', `/jobs/${id}/series/end`],
    ] as const) {
      const res = await c(method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const mine = await call(kit, a.token)('GET', `/jobs/${id}/series`);
    expect(mine.json().series).toMatchObject({ title: 'yearly clean', state: 'ended' });
  });
});
