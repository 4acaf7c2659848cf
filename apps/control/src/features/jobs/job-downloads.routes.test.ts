/**
 * Download URLs of a job's photos and signature: short-lived presigned GETs, handed out to whoever
 * may read the job (the office, the assigned technician), for the job's own files only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Principal } from '../auth/principal.js';
import { type JobsKit, startJobsKit } from './jobs.test-support.js';

let kit: JobsKit;
let a: { id: string; token: string; owner: Principal };
let tech: { principal: Principal; token: string };
let otherTech: { principal: Principal; token: string };
let office: { principal: Principal; token: string };
let job: { id: string };
let photoKey: string;
const bytes = Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...Buffer.alloc(1020, 9)]);

beforeAll(async () => {
  kit = await startJobsKit();
  a = await kit.tenant('dl-a', 'professional');
  await kit.erpFor(a.id);
  tech = await kit.member(a.id, 'technician');
  otherTech = await kit.member(a.id, 'technician');
  office = await kit.member(a.id, 'office');
  job = await kit.createJob(a.token, { technician_id: tech.principal.userId });
  const up = (
    await post(tech.token, `/jobs/${job.id}/uploads`, { kind: 'photo_after', content_type: 'image/jpeg', bytes: 1024 })
  ).json();
  await fetch(up.upload_url, { method: 'PUT', body: bytes, headers: { 'content-type': 'image/jpeg' } });
  expect((await post(tech.token, `/jobs/${job.id}/attachments`, { key: up.key, kind: 'photo_after' })).statusCode).toBe(
    201,
  );
  photoKey = up.key;
}, 120_000);
afterAll(async () => kit?.close());

function post(token: string, url: string, payload: object) {
  return kit.app.inject({ method: 'POST', url, headers: kit.auth(token), payload });
}

describe('job downloads', () => {
  it('gives the office a five-minute URL that serves the photo', async () => {
    const r = await post(office.token, `/jobs/${job.id}/downloads`, { key: photoKey });
    expect(r.statusCode).toBe(200);
    const { download_url, expires_at, kind } = r.json();
    expect(kind).toBe('photo_after');
    const left = Date.parse(expires_at) - Date.now();
    expect(left).toBeGreaterThan(60_000);
    expect(left).toBeLessThanOrEqual(300_000);
    const got = await fetch(download_url);
    expect(got.ok).toBe(true);
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('gives the assigned technician one too, and another technician the 404 of a job they cannot see', async () => {
    expect((await post(tech.token, `/jobs/${job.id}/downloads`, { key: photoKey })).statusCode).toBe(200);
    const other = await post(otherTech.token, `/jobs/${job.id}/downloads`, { key: photoKey });
    expect(other.statusCode).toBe(404);
  });

  it("refuses a key that is not one of the job's files, naming the field", async () => {
    const r = await post(office.token, `/jobs/${job.id}/downloads`, { key: `${a.id}/jobs/other/photo_after/x.jpg` });
    expect(r.statusCode).toBe(422);
    expect(r.json().errors).toContainEqual(expect.objectContaining({ field: 'key', rule: 'not_this_job' }));
    const empty = await post(office.token, `/jobs/${job.id}/downloads`, {});
    expect(empty.statusCode).toBe(422);
  });

  it('answers the history of the job, oldest first, to whoever may read it', async () => {
    await post(tech.token, `/jobs/${job.id}/stage`, { stage: 'travel' });
    const r = await kit.app.inject({ url: `/jobs/${job.id}/history`, headers: kit.auth(office.token) });
    expect(r.statusCode).toBe(200);
    const actions = r.json().items.map((e: { action: string }) => e.action);
    expect(actions[0]).toBe('job.create');
    expect(actions).toContain('job.attach');
    const move = r.json().items.find((e: { action: string }) => e.action === 'job.stage');
    expect(move.detail).toMatchObject({ from: 'scheduled', to: 'travel' });
    const other = await kit.app.inject({ url: `/jobs/${job.id}/history`, headers: kit.auth(otherTech.token) });
    expect(other.statusCode).toBe(404);
  });
});
