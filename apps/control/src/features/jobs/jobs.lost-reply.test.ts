/**
 * A retried request is applied once although the ERP's reply was lost (a proxy drops it after the
 * ERP committed) or the process died between the ERP call and the answer (its intent is left).
 */
import { createHash, randomUUID } from 'node:crypto';

import { odooCall } from '@platform/erp-embedded/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Principal } from '../auth/principal.js';
import { createOrder } from './erp/fsm-orders.js';
import { fingerprintOf } from './job-mutation.js';
import { type JobsKit, newJob, startJobsKit } from './jobs.test-support.js';

let kit: JobsKit;
let a: { id: string; token: string; owner: Principal };
let erp: Awaited<ReturnType<JobsKit['erpFor']>>;
let tech: { principal: Principal; token: string };

beforeAll(async () => {
  kit = await startJobsKit();
  a = await kit.tenant('lost-a', 'professional');
  erp = await kit.erpFor(a.id, { proxied: true });
  tech = await kit.member(a.id, 'technician');
}, 120_000);
afterAll(async () => kit?.close());

const post = (url: string, token: string, payload: object, key: string) =>
  kit.app.inject({ method: 'POST', url, headers: kit.auth(token, { 'idempotency-key': key }), payload });
const calls = (model: string, method: string) => erp.proxy!.seen.filter(odooCall(model, method)).length;

describe('jobs after a lost reply or a crash', () => {
  it('completes once when the reply of the completion was lost and the request is retried', async () => {
    const job = (await post('/jobs', a.token, newJob({ technician_id: tech.principal.userId }), 'c-job')).json();
    erp.proxy!.dropNext(odooCall('fsm.order', 'action_complete'));
    const first = await post(`/jobs/${job.id}/complete`, tech.token, { resolution: 'Fitted' }, 'complete-1');
    expect(first.statusCode).toBe(503);
    expect(erp.proxy!.dropped).toHaveLength(1);
    const retry = await post(`/jobs/${job.id}/complete`, tech.token, { resolution: 'Fitted' }, 'complete-1');
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toMatchObject({ stage: { key: 'done' }, resolution: 'Fitted' });
    // The retry found the order completed and did not complete it again (the ERP would refuse anyway).
    expect(calls('fsm.order', 'action_complete')).toBe(1);
    const audit = await kit.t.db.query(
      `SELECT detail FROM audit_log WHERE tenant_id = $1 AND action = 'job.complete'`,
      [a.id],
    );
    expect(audit.rows).toEqual([
      { detail: expect.objectContaining({ recovered: true, idempotency_key: 'complete-1' }) },
    ]);
    const replay = await post(`/jobs/${job.id}/complete`, tech.token, { resolution: 'Fitted' }, 'complete-1');
    expect(replay.json()).toEqual(retry.json());
  });

  it('creates one order when the reply of the create was lost and the request is retried', async () => {
    const body = newJob({ scheduled_start: '2027-02-01T15:00:00Z', scheduled_end: '2027-02-01T16:00:00Z' });
    erp.proxy!.dropNext(odooCall('fsm.order', 'create'));
    expect((await post('/jobs', a.token, body, 'create-lost')).statusCode).toBe(503);
    const retry = await post('/jobs', a.token, body, 'create-lost');
    expect(retry.statusCode).toBe(201);
    expect(await erp.erp.searchCount('fsm.order', [['scheduled_date_start', '=', '2027-02-01 15:00:00']])).toBe(1);
    const usage = await kit.t.db.query(`SELECT jobs FROM tenant_job_counts WHERE tenant_id = $1`, [a.id]);
    expect(usage.rows[0]).toEqual({ jobs: 2 });
  });

  it('finishes the intent a crashed process left behind, finding its ERP order by the marker', async () => {
    const body = newJob({ scheduled_start: '2027-03-01T15:00:00Z', scheduled_end: '2027-03-01T16:00:00Z' });
    const marker = randomUUID();
    // What the crashed process did: its intent committed, then the ERP order made, then nothing.
    await kit.t.db.query(
      `INSERT INTO job_requests (tenant_id, key, fingerprint, state, marker, lease_until) VALUES ($1, 'crashed', $2, 'pending', $3, now() - interval '1 second')`,
      [a.id, fingerprintOf(a.owner, ['POST', '/jobs', body]), marker],
    );
    await createOrder(
      erp.erp,
      { customer: { name: 'Crash Customer' }, address: body.address, scheduledStart: body.scheduled_start },
      marker,
    );
    const r = await post('/jobs', a.token, body, 'crashed');
    expect(r.statusCode).toBe(201);
    expect(r.json().customer.name).toBe('Crash Customer');
    expect(await erp.erp.searchCount('fsm.order', [['scheduled_date_start', '=', '2027-03-01 15:00:00']])).toBe(1);
  });

  it('answers IDEMPOTENCY_REQUEST_IN_PROGRESS while the first request with the key holds its lease', async () => {
    const body = newJob();
    await kit.t.db.query(
      `INSERT INTO job_requests (tenant_id, key, fingerprint, state, marker, lease_until) VALUES ($1, 'busy', $2, 'pending', $3, now() + interval '1 minute')`,
      [a.id, fingerprintOf(a.owner, ['POST', '/jobs', body]), randomUUID()],
    );
    expect((await post('/jobs', a.token, body, 'busy')).json().code).toBe('IDEMPOTENCY_REQUEST_IN_PROGRESS');
  });

  it('replays an answer stored with an HTTP status and the earlier print (before outcomes were stored)', async () => {
    const body = newJob();
    const request = ['POST', '/jobs', body];
    const earlierPrint = createHash('sha256')
      .update(JSON.stringify([a.owner.userId, request]))
      .digest('hex');
    const stored = { id: 'stored-before-outcomes' };
    await kit.t.db.query(
      `INSERT INTO job_requests (tenant_id, key, fingerprint, state, marker, lease_until, status_code, response)
       VALUES ($1, 'stored-201', $2, 'done', $3, now(), 201, $4)`,
      [a.id, earlierPrint, randomUUID(), JSON.stringify(stored)],
    );
    const r = await post('/jobs', a.token, body, 'stored-201');
    expect(r.statusCode).toBe(201);
    expect(r.json()).toEqual(stored);
    expect(r.headers['idempotent-replayed']).toBe('true');
  });
});
