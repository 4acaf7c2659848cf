/**
 * Logo and favicon uploads: the plan gate first, then the bytes are checked by content (not the
 * header), the size capped, the image re-encoded to a bounded PNG that anyone may load; another
 * tenant's id is 404 and office staff are refused.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createLocalObjectStore } from '@platform/storage';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ControlKit, startControlKit } from '../../testing/control-test-kit.js';

let kit: ControlKit;
let dir: string;
let free: { id: string; token: string };
let pro: { id: string; token: string };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const image = (width: number, height: number, format: 'png' | 'jpeg' | 'webp' = 'png') =>
  sharp({ create: { width, height, channels: 3, background: '#1a4d7a' } })
    .toFormat(format)
    .toBuffer();

const upload = (t: { id: string; token: string }, kind: string, payload: Buffer, type = 'image/png', id = t.id) =>
  kit.app.inject({
    method: 'PUT',
    url: `/api/tenants/${id}/branding/${kind}`,
    headers: { ...bearer(t.token), 'content-type': type },
    payload,
  });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'branding-'));
  kit = await startControlKit({}, { objects: createLocalObjectStore({ root: dir }) });
  free = await kit.tenant('free-co', 'free');
  pro = await kit.tenant('pro-co', 'professional');
}, 60_000);
afterAll(async () => {
  await kit?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('uploading a logo or favicon', () => {
  it('refuses a Free tenant with the plan that unlocks branding, whatever it sent', async () => {
    const r = await upload(free, 'logo', await image(10, 10));
    expect(r.statusCode).toBe(403);
    expect(r.json()).toMatchObject({ code: 'PLAN_FEATURE_MISSING', required_plan: 'starter' });
  });

  it('re-encodes a large JPEG logo to a PNG at most 512 px high, served to anyone at the URL it sets', async () => {
    const r = await upload(pro, 'logo', await image(2000, 1200, 'jpeg'), 'application/octet-stream');
    expect(r.statusCode).toBe(200);
    const url = r.json().url as string;
    expect(url).toMatch(new RegExp(`^/api/control/api/branding/${pro.id}/logo-[0-9a-f]{16}\\.png$`));
    const settings = await kit.app.inject({ url: `/api/tenants/${pro.id}/settings`, headers: bearer(pro.token) });
    expect(settings.json().logo_url).toBe(url);
    const got = await kit.app.inject({ url: url.replace('/api/control', '') });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    const meta = await sharp(got.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 853, 512]);
  });

  it('deletes the logo a new upload replaces, and keeps serving the new one', async () => {
    const first = (await upload(pro, 'logo', await image(40, 20))).json().url as string;
    const second = await upload(pro, 'logo', await image(20, 40));
    expect(second.statusCode).toBe(200);
    expect(second.json().url).not.toBe(first);
    expect((await kit.app.inject({ url: first.replace('/api/control', '') })).statusCode).toBe(404);
    expect((await kit.app.inject({ url: (second.json().url as string).replace('/api/control', '') })).statusCode).toBe(
      200,
    );
  });

  it('makes a favicon a 180 px square PNG', async () => {
    const r = await upload(pro, 'favicon', await image(64, 32, 'webp'), 'image/webp');
    expect(r.statusCode).toBe(200);
    const got = await kit.app.inject({ url: (r.json().url as string).replace('/api/control', '') });
    const meta = await sharp(got.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 180, 180]);
  });

  it('judges the type by the bytes: text or SVG labelled image/png is 415 naming the file', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    for (const body of [Buffer.from('not an image at all'), svg]) {
      const r = await upload(pro, 'logo', body, 'image/png');
      expect(r.statusCode).toBe(415);
      expect(r.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', errors: [{ field: 'file', rule: 'type' }] });
    }
  });

  it('answers 422 naming the file for a PNG that does not decode, and for an empty body', async () => {
    const broken = Buffer.concat([(await image(10, 10)).subarray(0, 40), Buffer.alloc(100)]);
    const r = await upload(pro, 'logo', broken);
    expect(r.statusCode).toBe(422);
    expect(r.json().errors).toEqual([expect.objectContaining({ field: 'file', rule: 'image' })]);
    const empty = await upload(pro, 'logo', Buffer.alloc(0));
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors[0].field).toBe('file');
  });

  it('refuses more than 2 MiB with 413 naming the file, and an unknown kind with 422', async () => {
    const big = Buffer.concat([await image(10, 10), Buffer.alloc(2 * 1024 * 1024)]);
    const r = await upload(pro, 'logo', big);
    expect(r.statusCode).toBe(413);
    expect(r.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', errors: [{ field: 'file', rule: 'max_bytes' }] });
    const kind = await upload(pro, 'banner', await image(10, 10));
    expect(kind.statusCode).toBe(422);
    expect(kind.json().errors[0].field).toBe('kind');
  });

  it("answers 404 to another tenant's owner and 403 to office staff; nothing changes", async () => {
    const before = (
      await kit.app.inject({ url: `/api/tenants/${pro.id}/settings`, headers: bearer(pro.token) })
    ).json();
    const other = await upload(free, 'logo', await image(10, 10), 'image/png', pro.id);
    expect(other.statusCode).toBe(404);
    const office = await kit.member(pro.id, 'office');
    const staff = await upload({ id: pro.id, token: office.token }, 'logo', await image(10, 10));
    expect(staff.statusCode).toBe(403);
    const after = (await kit.app.inject({ url: `/api/tenants/${pro.id}/settings`, headers: bearer(pro.token) })).json();
    expect(after.logo_url).toBe(before.logo_url);
  });

  it('serves no image for a name that is not a stored one', async () => {
    const r = await kit.app.inject({ url: `/api/branding/${pro.id}/logo-0000000000000000.png` });
    expect(r.statusCode).toBe(404);
    const bad = await kit.app.inject({ url: `/api/branding/${pro.id}/..%2Fsecret.png` });
    expect(bad.statusCode).toBe(422);
  });
});
