import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  createLocalObjectStore,
  createS3ObjectStore,
  loadStoreConfig,
  ObjectNotFoundError,
  type ObjectStore,
  readAll,
} from './index.js';
import { adaptClientToS3rver, startTestS3, type TestS3 } from './test-support/s3-server.js';

let s3: TestS3;
let dir: string;
beforeAll(async () => {
  s3 = await startTestS3();
  dir = mkdtempSync(join(tmpdir(), 'objects-'));
});
afterAll(async () => {
  await s3?.close();
  rmSync(dir, { recursive: true, force: true });
});

const drivers: [string, () => ObjectStore][] = [
  ['local files', () => createLocalObjectStore({ root: dir, publicUrl: 'http://localhost:8001/objects' })],
  [
    'S3 API (loopback s3rver)',
    () => {
      const store = createS3ObjectStore({
        bucket: s3.bucket,
        region: 'us-east-1',
        endpoint: s3.endpoint,
        accessKeyId: s3.accessKeyId,
        secretAccessKey: s3.secretAccessKey,
        prefix: 'objects/',
      });
      adaptClientToS3rver(store.client);
      return store;
    },
  ],
];

describe.each(drivers)('object store on %s', (_name, open) => {
  it('gives back what was put, lists by prefix and forgets what was deleted', async () => {
    const store = open();
    await store.put('t1/photos/a.jpg', Buffer.from('photo-bytes'), { contentType: 'image/jpeg' });
    await store.put('t1/signatures/s.png', 'signature-bytes');
    await store.put('t2/photos/b.jpg', 'other tenant');
    expect((await readAll(await store.get('t1/photos/a.jpg'))).toString()).toBe('photo-bytes');
    expect((await store.list('t1/')).map((o) => [o.key, o.size])).toEqual([
      ['t1/photos/a.jpg', 11],
      ['t1/signatures/s.png', 15],
    ]);
    await store.delete('t1/photos/a.jpg');
    await store.delete('t1/photos/a.jpg');
    await expect(store.get('t1/photos/a.jpg')).rejects.toBeInstanceOf(ObjectNotFoundError);
  });

  it('uploads a stream of several megabytes intact', async () => {
    const store = open();
    const chunk = Buffer.alloc(1024 * 1024, 7);
    const parts = Array.from({ length: 6 }, (_, i) => Buffer.concat([chunk, Buffer.from([i])]));
    await store.put('big/archive.bin', Readable.from(parts));
    const back = await readAll(await store.get('big/archive.bin'));
    expect(back.equals(Buffer.concat(parts))).toBe(true);
  });

  it('refuses keys that would escape their folder', async () => {
    await expect(open().put('../etc/passwd', 'x')).rejects.toThrow(/invalid object key/);
    await expect(open().put('a//b', 'x')).rejects.toThrow(/invalid object key/);
  });
});

describe('presigned URLs', () => {
  it('let a plain HTTP client download from the S3 store without credentials, and not after tampering', async () => {
    const store = drivers[1]![1]();
    await store.put('t1/photos/p.jpg', 'presigned-photo');
    const url = await store.presign('t1/photos/p.jpg', { expiresIn: 60 });
    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('presigned-photo');
    expect((await fetch(url.replace('p.jpg', 'q.jpg'))).status).toBe(403);
  });

  it('are verified by the local driver: a valid one names its key, an altered or expired one is refused', async () => {
    const store = createLocalObjectStore({ root: dir, publicUrl: 'http://localhost:8001/objects' });
    const url = new URL(await store.presign('t1/photos/p.jpg'));
    expect(store.verifyPresigned(url)).toBe('t1/photos/p.jpg');
    expect(store.verifyPresigned(new URL(url.href.replace('p.jpg', 'q.jpg')))).toBeNull();
    expect(store.verifyPresigned(new URL(await store.presign('t1/photos/p.jpg', { expiresIn: -1 })))).toBeNull();
  });
});

describe('store configuration', () => {
  it('names the missing variable when the s3 driver lacks its bucket', () => {
    expect(() => loadStoreConfig({ STORAGE_DRIVER: 's3' }, 'STORAGE')).toThrow(/STORAGE_S3_BUCKET: is required/);
    expect(loadStoreConfig({}, 'BACKUP').DRIVER).toBe('local');
  });
});
