/** Photos and the signature: presigned PUT straight to a real S3-protocol server, then registered once per key. */
import { readAll } from '@platform/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Principal } from '../auth/principal.js';
import { type JobsKit, startJobsKit } from './jobs.test-support.js';

let kit: JobsKit;
let a: { id: string; token: string; owner: Principal };
let tech: { principal: Principal; token: string };
let job: { id: string };

beforeAll(async () => {
  kit = await startJobsKit();
  a = await kit.tenant('up-a', 'professional');
  await kit.erpFor(a.id);
  tech = await kit.member(a.id, 'technician');
  job = await kit.createJob(a.token, { technician_id: tech.principal.userId });
}, 120_000);
afterAll(async () => kit?.close());

const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  kit.app.inject({ method: 'POST', url, headers: kit.auth(tech.token, headers), payload });

describe('job uploads', () => {
  it("uploads a photo and a signature under the tenant's and job's prefix, and shows them on the job", async () => {
    const photo = await post(`/jobs/${job.id}/uploads`, {
      kind: 'photo_before',
      content_type: 'image/jpeg',
      bytes: 2048,
    });
    expect(photo.statusCode).toBe(201);
    const { key, upload_url, expires_at } = photo.json();
    expect(key).toMatch(new RegExp(`^${a.id}/jobs/${job.id}/photo_before/[0-9a-f-]{36}\\.jpg$`));
    expect(Date.parse(expires_at)).toBeGreaterThan(Date.now());
    const put = await fetch(upload_url, {
      method: 'PUT',
      body: Buffer.alloc(2048, 7),
      headers: { 'content-type': 'image/jpeg' },
    });
    expect(put.ok).toBe(true);
    const reg = await post(`/jobs/${job.id}/attachments`, { key, kind: 'photo_before' });
    expect(reg.statusCode).toBe(201);
    expect(reg.json().photos).toEqual([{ key, kind: 'photo_before', at: expect.any(String) }]);
    const again = await post(`/jobs/${job.id}/attachments`, { key, kind: 'photo_before' });
    expect(again.statusCode).toBe(200);
    expect(again.json().photos).toHaveLength(1);
    expect((await readAll(await kit.deps.objects.get(key))).length).toBe(2048);

    const sig = (
      await post(`/jobs/${job.id}/uploads`, { kind: 'signature', content_type: 'image/png', bytes: 300 })
    ).json();
    await fetch(sig.upload_url, {
      method: 'PUT',
      body: Buffer.alloc(300, 1),
      headers: { 'content-type': 'image/png' },
    });
    const withSig = (await post(`/jobs/${job.id}/attachments`, { key: sig.key, kind: 'signature' })).json();
    expect(withSig.signature).toEqual({ key: sig.key, at: expect.any(String) });
  });

  it('bounds the content type and size of an upload', async () => {
    const svg = await post(`/jobs/${job.id}/uploads`, { kind: 'signature', content_type: 'image/svg+xml', bytes: 100 });
    expect(svg.json().errors[0]).toMatchObject({ field: 'content_type', rule: 'not_allowed' });
    const big = await post(`/jobs/${job.id}/uploads`, {
      kind: 'photo_after',
      content_type: 'image/jpeg',
      bytes: 40_000_000,
    });
    expect(big.json().errors[0]).toMatchObject({ field: 'bytes', rule: 'too_large' });
  });

  it('refuses to register a key of another job or kind, or one nothing was uploaded to', async () => {
    const up = (
      await post(`/jobs/${job.id}/uploads`, { kind: 'photo_after', content_type: 'image/png', bytes: 10 })
    ).json();
    const missing = await post(`/jobs/${job.id}/attachments`, { key: up.key, kind: 'photo_after' });
    expect(missing.json().errors[0]).toMatchObject({ field: 'key', rule: 'not_uploaded' });
    const wrongKind = await post(`/jobs/${job.id}/attachments`, { key: up.key, kind: 'signature' });
    expect(wrongKind.json().errors[0]).toMatchObject({ field: 'key', rule: 'not_this_job' });
    const otherTenant = up.key.replace(a.id, '00000000-0000-4000-8000-000000000000');
    expect(
      (await post(`/jobs/${job.id}/attachments`, { key: otherTenant, kind: 'photo_after' })).json().errors[0].rule,
    ).toBe('not_this_job');
  });

  it('gives the same upload URL for a repeated request with the same Idempotency-Key', async () => {
    const body = { kind: 'photo_after', content_type: 'image/webp', bytes: 500 };
    const one = await post(`/jobs/${job.id}/uploads`, body, { 'idempotency-key': 'upload-1' });
    const two = await post(`/jobs/${job.id}/uploads`, body, { 'idempotency-key': 'upload-1' });
    expect(two.json()).toEqual(one.json());
  });
});
