/**
 * /media on the landing host: a tenant's gallery image is served on its own host as a long-cached
 * WebP; the same key on another tenant's host, on the platform's host, or any key that is not one of
 * the tenant's uploads is 404. The store is the one the control plane writes (storeWebsiteImage).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createLocalObjectStore } from '@platform/storage';
import { storeWebsiteImage } from '@platform/website';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestLanding, type TestLanding } from '../../../test/support/landing-harness.js';
import { MEDIA_CACHE_CONTROL } from './media.routes.js';

let h: TestLanding;
let dir: string;
let alphaKey = '';

const get = (host: string, url: string) => h.landing.app.inject({ url, headers: { host } });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'landing-media-'));
  const objects = createLocalObjectStore({ root: dir });
  h = await startTestLanding({ TENANTS_HOST: 'tenants.test' }, { site: true, objects });
  const tenant = async (slug: string) =>
    (await h.db.query<{ id: string }>(`INSERT INTO tenants (slug, name) VALUES ($1, $1) RETURNING id`, [slug])).rows[0]!
      .id;
  const alpha = await tenant('alpha');
  await tenant('beta');
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#6a1b9a' } })
    .png()
    .toBuffer();
  const stored = await storeWebsiteImage(objects, alpha, png);
  alphaKey = stored.image_key;
}, 60_000);
afterAll(async () => {
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('/media on the landing host', () => {
  it("serves the tenant's own gallery image as a long-cached WebP", async () => {
    const r = await get('alpha.tenants.test', `/media/${alphaKey}`);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('image/webp');
    expect(r.headers['cache-control']).toBe(MEDIA_CACHE_CONTROL);
    expect(r.rawPayload.toString('latin1', 8, 12)).toBe('WEBP');
    expect((await sharp(r.rawPayload).metadata()).width).toBe(40);
  });

  it("is 404 for the same key on another tenant's host and on the platform's host", async () => {
    const other = await get('beta.tenants.test', `/media/${alphaKey}`);
    expect(other.statusCode).toBe(404);
    expect(other.headers['content-type']).not.toBe('image/webp');
    expect((await get('localhost', `/media/${alphaKey}`)).statusCode).toBe(404);
  });

  it("is 404 for a key that is not one of the tenant's uploads", async () => {
    const [tenantId] = alphaKey.split('/');
    for (const url of [
      `/media/${tenantId}/website/${'0'.repeat(32)}.webp`,
      `/media/${tenantId}/website/../../etc/passwd`,
      `/media/${tenantId}/signatures/x.png`,
      '/media/',
    ])
      expect((await get('alpha.tenants.test', url)).statusCode, url).toBe(404);
  });

  it('is 404 on a host no tenant has', async () => {
    expect((await get('nobody.example', `/media/${alphaKey}`)).statusCode).toBe(404);
  });
});
