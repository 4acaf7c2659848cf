/** The embedded object store's presigned URLs, served by the control plane (local driver under DATA_DIR). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadStoreConfig } from '@platform/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ControlKit, startControlKit } from '../../testing/control-test-kit.js';
import { openJobObjects } from './job-objects.js';

let kit: ControlKit;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'control-objects-'));
  kit = await startControlKit({ DATA_DIR: dir, CONTROL_PUBLIC_URL: 'http://control.test' });
});
afterAll(async () => {
  await kit?.close();
  rmSync(dir, { recursive: true, force: true });
});

const pathOf = (url: string) => {
  const u = new URL(url);
  expect(u.origin).toBe('http://control.test');
  return `${u.pathname}${u.search}`;
};

describe('embedded object store URLs', () => {
  it('stores a photo PUT to its presigned URL and gives it back on a presigned GET only', async () => {
    const key = 'a1/jobs/j1/photo_before/0b7d3c1e-1111-4222-8333-444455556666.jpg';
    const put = pathOf(await kit.deps.objects.presign(key, { method: 'put' }));
    const bytes = Buffer.alloc(5000, 9);
    const r = await kit.app.inject({
      method: 'PUT',
      url: put,
      headers: { 'content-type': 'image/jpeg' },
      payload: bytes,
    });
    expect(r.statusCode).toBe(200);
    expect(await kit.deps.objects.list('a1/jobs/j1/')).toEqual([{ key, size: 5000 }]);
    const get = pathOf(await kit.deps.objects.presign(key));
    const back = await kit.app.inject({ url: get });
    expect(back.rawPayload.equals(bytes)).toBe(true);
    expect((await kit.app.inject({ url: put })).json().code).toBe('UPLOAD_URL_INVALID');
  });

  it('refuses an altered or expired link, writing nothing', async () => {
    const key = 'a1/jobs/j2/signature/0b7d3c1e-1111-4222-8333-444455556667.png';
    const put = pathOf(await kit.deps.objects.presign(key, { method: 'put' }));
    const other = put.replace('/j2/', '/j3/');
    const altered = await kit.app.inject({
      method: 'PUT',
      url: other,
      headers: { 'content-type': 'image/png' },
      payload: Buffer.alloc(10),
    });
    expect(altered.statusCode).toBe(403);
    expect(altered.json().code).toBe('UPLOAD_URL_INVALID');
    const expired = pathOf(await kit.deps.objects.presign(key, { method: 'put', expiresIn: -10 }));
    expect(
      (
        await kit.app.inject({
          method: 'PUT',
          url: expired,
          headers: { 'content-type': 'image/png' },
          payload: Buffer.alloc(10),
        })
      ).statusCode,
    ).toBe(403);
    expect(await kit.deps.objects.list('a1/jobs/j3/')).toEqual([]);
    expect(await kit.deps.objects.list('a1/jobs/j2/')).toEqual([]);
  });

  it('signs links for the address it listens on when no public URL is set, port 0 included', async () => {
    const key = 'a1/jobs/j4/photo_after/0b7d3c1e-1111-4222-8333-444455556668.jpg';
    const own = openJobObjects({ DATA_DIR: dir, CONTROL_PORT: 0 }, loadStoreConfig({}, 'STORAGE'));
    own.embedded!.listeningOn('http://127.0.0.1:41234');
    const url = new URL(await own.objects.presign(key, { method: 'put' }));
    expect(url.origin).toBe('http://127.0.0.1:41234');
    expect(own.embedded!.verifyPresigned(url)).toBe(key);
    // A configured CONTROL_PUBLIC_URL stays what the links name.
    kit.deps.embeddedObjects!.listeningOn('http://127.0.0.1:41235');
    expect(new URL(await kit.deps.objects.presign(key)).origin).toBe('http://control.test');
  });
});
