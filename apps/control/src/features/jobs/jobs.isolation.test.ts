/**
 * Every /jobs endpoint, walked with another tenant's token against tenant A's job ids, and with a
 * technician against another technician's job: each answers 404 and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Principal } from '../auth/principal.js';
import { type JobsKit, newJob, startJobsKit, tenantsWithErps } from './jobs.test-support.js';

let kit: JobsKit;
let a: { id: string; token: string; owner: Principal };
let b: { id: string; token: string; owner: Principal };
let techA1: { principal: Principal; token: string };
let techA2: { principal: Principal; token: string };
let techB: { principal: Principal; token: string };
let job: { id: string; version: string; name: string };
let key: string;

beforeAll(async () => {
  kit = await startJobsKit();
  [a, b] = await tenantsWithErps(kit, 'iso-a', 'iso-b');
  techA1 = await kit.member(a.id, 'technician');
  techA2 = await kit.member(a.id, 'technician');
  techB = await kit.member(b.id, 'technician');
  const auth = kit.auth(a.token);
  job = (
    await kit.app.inject({
      method: 'POST',
      url: '/jobs',
      headers: auth,
      payload: newJob({ technician_id: techA1.principal.userId }),
    })
  ).json();
  // B has jobs of its own (so its ERP database has orders with the same ERP ids as A's).
  await kit.app.inject({
    method: 'POST',
    url: '/jobs',
    headers: kit.auth(b.token),
    payload: newJob({ technician_id: techB.principal.userId }),
  });
  const up = await kit.app.inject({
    method: 'POST',
    url: `/jobs/${job.id}/uploads`,
    headers: kit.auth(techA1.token),
    payload: { kind: 'photo_before', content_type: 'image/jpeg', bytes: 1000 },
  });
  key = up.json().key;
  await fetch(up.json().upload_url, {
    method: 'PUT',
    body: Buffer.alloc(1000, 1),
    headers: { 'content-type': 'image/jpeg' },
  });
}, 180_000);
afterAll(async () => kit?.close());

/** Every endpoint that takes a job id, with a body that would be accepted for the job's owner. */
const endpoints = () =>
  [
    ['GET', `/jobs/${job.id}`, undefined],
    [
      'POST',
      `/jobs/${job.id}/schedule`,
      { scheduled_start: '2026-11-26T15:00:00Z', scheduled_end: '2026-11-26T16:00:00Z' },
    ],
    ['POST', `/jobs/${job.id}/assign`, { technician_id: techA2.principal.userId }],
    ['POST', `/jobs/${job.id}/stage`, { stage: 'travel' }],
    ['POST', `/jobs/${job.id}/complete`, { resolution: 'done by an intruder' }],
    ['POST', `/jobs/${job.id}/notes`, { body: 'intruder note' }],
    ['PATCH', `/jobs/${job.id}/checklist/confirm`, { done: true }],
    ['POST', `/jobs/${job.id}/uploads`, { kind: 'photo_after', content_type: 'image/jpeg', bytes: 10 }],
    ['POST', `/jobs/${job.id}/attachments`, { key, kind: 'photo_before' }],
  ] as const;

async function walk(token: string, only?: (path: string) => boolean) {
  const out: string[] = [];
  for (const [method, url, payload] of endpoints()) {
    if (only && !only(url)) continue;
    const r = await kit.app.inject({ method, url, headers: kit.auth(token), ...(payload ? { payload } : {}) });
    out.push(`${method} ${url.replace(job.id, '{id}')} ${r.statusCode} ${r.json().code ?? ''}`);
  }
  return out;
}

describe('jobs across tenants and technicians', () => {
  it("answers 404 to another tenant's owner on every job endpoint, and lists none of A's jobs", async () => {
    const seen = await walk(b.token);
    expect(seen).toEqual(seen.map((s) => s.replace(/ \d{3} \S*$/, ' 404 NOT_FOUND')));
    expect(seen).toHaveLength(9);
    const list = (await kit.app.inject({ url: '/jobs', headers: kit.auth(b.token) })).json();
    expect(list.items.map((j: { id: string }) => j.id)).not.toContain(job.id);
    expect(list.total).toBe(1);
    const byTech = await kit.app.inject({
      url: `/jobs?technician_id=${techA1.principal.userId}`,
      headers: kit.auth(b.token),
    });
    expect(byTech.json().total).toBe(0);
  });

  it("refuses a technician's look at another technician's job as not found", async () => {
    const techEndpoints = (u: string) => !u.endsWith('/schedule') && !u.endsWith('/assign');
    const seen = await walk(techA2.token, techEndpoints);
    expect(seen).toEqual(seen.map((s) => s.replace(/ \d{3} \S*$/, ' 404 NOT_FOUND')));
    expect(seen).toHaveLength(7);
    expect((await kit.app.inject({ url: '/jobs', headers: kit.auth(techA2.token) })).json().total).toBe(0);
    expect((await walk(techB.token, techEndpoints)).every((s) => s.endsWith('404 NOT_FOUND'))).toBe(true);
  });

  it("left A's job exactly as it was", async () => {
    const now = (await kit.app.inject({ url: `/jobs/${job.id}`, headers: kit.auth(a.token) })).json();
    expect(now).toMatchObject({
      version: job.version,
      stage: { key: 'scheduled' },
      notes: [],
      photos: [],
      resolution: null,
    });
    expect(now.technician.id).toBe(techA1.principal.userId);
    expect(now.checklist.every((c: { done: boolean }) => !c.done)).toBe(true);
  });

  it('refuses office-only changes to a technician, even on their own job', async () => {
    const own = await walk(techA1.token, (u) => u.endsWith('/schedule') || u.endsWith('/assign'));
    expect(own).toEqual(['POST /jobs/{id}/schedule 403 ROLE_FORBIDDEN', 'POST /jobs/{id}/assign 403 ROLE_FORBIDDEN']);
  });
});
