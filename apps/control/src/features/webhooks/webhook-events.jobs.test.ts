/**
 * Jobs queue their outbound webhook events with their commits: job.scheduled when a job is made with
 * its time and when it is rescheduled, job.completed once per job; a retried request (same
 * Idempotency-Key) queues nothing more; a tenant without an endpoint taking them queues none.
 */
import { randomUUID } from 'node:crypto';

import { insertEndpoint } from '@platform/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Principal } from '../auth/principal.js';
import { type JobsKit, newJob, startJobsKit } from '../jobs/jobs.test-support.js';

let kit: JobsKit;
let a: { id: string; token: string; owner: Principal };
let tech: { principal: Principal; token: string };

beforeAll(async () => {
  kit = await startJobsKit();
  a = await kit.tenant('wh-jobs', 'professional');
  await kit.erpFor(a.id);
  tech = await kit.member(a.id, 'technician');
  // Events are queued only for a tenant with an endpoint that takes them (the secret is not used here).
  await kit.t.db.transaction((tx) =>
    insertEndpoint(tx, {
      id: randomUUID(),
      tenantId: a.id,
      url: 'https://hooks.example.com/in',
      description: null,
      events: ['job.scheduled', 'job.completed'],
      secretEnc: 'not-used-here',
    }),
  );
}, 120_000);
afterAll(async () => kit?.close());

const post = (url: string, token: string, payload: unknown, headers: Record<string, string> = {}) =>
  kit.app.inject({ method: 'POST', url, headers: kit.auth(token, headers), payload: payload as object });

async function events(jobId: string) {
  const r = await kit.t.db.query<{ type: string; data: Record<string, unknown> }>(
    `SELECT payload->>'type' AS type, payload->'data' AS data FROM outbox
      WHERE topic = 'webhook.event' AND tenant_id = $1 AND payload->'data'->>'job_id' = $2 ORDER BY id`,
    [a.id, jobId],
  );
  return r.rows;
}

describe('job events', () => {
  it('queues job.scheduled on creation with a time and on a reschedule, once per retried request', async () => {
    const job = (await post('/jobs', a.token, newJob())).json();
    const again = { scheduled_start: '2026-12-01T15:00:00Z', scheduled_end: '2026-12-01T16:00:00Z' };
    const key = { 'idempotency-key': 'resched-1' };
    expect((await post(`/jobs/${job.id}/schedule`, a.token, again, key)).statusCode).toBe(200);
    expect((await post(`/jobs/${job.id}/schedule`, a.token, again, key)).statusCode).toBe(200);
    expect(await events(job.id)).toEqual([
      {
        type: 'job.scheduled',
        data: expect.objectContaining({ job_id: job.id, scheduled_start: '2026-11-25T15:00:00Z' }),
      },
      { type: 'job.scheduled', data: expect.objectContaining({ job_id: job.id, ...again }) },
    ]);
  });

  it('queues job.completed once when the job is completed', async () => {
    const job = (await post('/jobs', a.token, newJob({ technician_id: tech.principal.userId }))).json();
    const body = { resolution: 'Fitted.' };
    const key = { 'idempotency-key': 'complete-1' };
    expect((await post(`/jobs/${job.id}/complete`, tech.token, body, key)).statusCode).toBe(200);
    expect((await post(`/jobs/${job.id}/complete`, tech.token, body, key)).statusCode).toBe(200);
    const completed = (await events(job.id)).filter((e) => e.type === 'job.completed');
    expect(completed).toEqual([
      { type: 'job.completed', data: expect.objectContaining({ job_id: job.id, resolution: 'Fitted.' }) },
    ]);
  });

  it('queues nothing for a tenant without an endpoint that takes the event', async () => {
    const other = await kit.tenant('wh-jobs-none', 'professional');
    await kit.erpFor(other.id);
    const job = (await post('/jobs', other.token, newJob())).json();
    expect(job.id).toBeTruthy();
    const r = await kit.t.db.query(`SELECT 1 FROM outbox WHERE topic = 'webhook.event' AND tenant_id = $1`, [other.id]);
    expect(r.rows).toEqual([]);
  });
});
