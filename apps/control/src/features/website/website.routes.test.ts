/**
 * The Website area's API: owners and admins edit the draft (plain text, field-named problems),
 * publish, roll back (audited); the catalogue follows the tenant's grids and branches; gallery images
 * are checked and re-encoded to WebP (the Meta pixel and its token: website-tracking.routes.test.ts).
 * Office staff are refused, and tenant B never sees or changes tenant A's site.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createLocalObjectStore } from '@platform/storage';
import { defaultWebsiteContent, readSnapshot, readWebsiteImage } from '@platform/website';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ControlKit, startControlKit } from '../../testing/control-test-kit.js';

let kit: ControlKit;
let dir: string;
const a = { id: '', owner: '', office: '' };
const b = { id: '', owner: '' };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'website-objects-'));
  kit = await startControlKit(
    { SECRETS_KEYRING: `k1:${randomBytes(32).toString('base64')}` },
    { objectStore: createLocalObjectStore({ root: dir }) },
  );
  const ta = await kit.tenant('acme-blinds', 'professional');
  Object.assign(a, { id: ta.id, owner: ta.token, office: (await kit.member(ta.id, 'office')).token });
  const tb = await kit.tenant('bravo-shades', 'professional');
  Object.assign(b, { id: tb.id, owner: tb.token });
}, 60_000);
afterAll(async () => {
  await kit?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call(method: string, url: string, token: string, body?: unknown, headers: Record<string, string> = {}) {
  const r = await kit.app.inject({
    method: method as 'GET',
    url,
    headers: { authorization: `Bearer ${token}`, ...headers },
    ...(body === undefined ? {} : { payload: body as object }),
  });
  return { status: r.statusCode, body: r.body ? JSON.parse(r.body) : undefined };
}

const site = (id = a.id) => `/api/tenants/${id}/website`;
const fields = (r: { body: { errors?: { field: string }[] } }) => (r.body.errors ?? []).map((e) => e.field).sort();
const snapshot = (id = a.id) => readSnapshot(kit.deps.db, id, 'tenants.test');

describe('website editing', () => {
  it('shows the editor the defaults under its own name and the products of its price grids', async () => {
    const r = await call('GET', site(), a.owner);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.draft.about.title).toBe('About Tenant acme-blinds');
    expect(r.body.published).toBeNull();
    expect(r.body.site_url).toMatch(/^https?:\/\/acme-blinds\./);
    const roller = r.body.catalog.products.find((p: { code: string }) => p.code === 'roller-shade');
    expect(roller).toEqual({ code: 'roller-shade', name: 'Roller Shade', from_minor: 8900, currency: 'USD' });
  });

  it('refuses office staff and another tenant', async () => {
    expect((await call('GET', site(), a.office)).status).toBe(403);
    expect((await call('POST', `${site()}/publish`, a.office)).status).toBe(403);
    expect((await call('GET', site(), b.owner)).status).toBe(404);
    expect((await call('PUT', `${site()}/draft`, b.owner, defaultWebsiteContent('B'))).status).toBe(404);
  });

  it('refuses control characters, line breaks in one-line fields and blanks, naming each field', async () => {
    const nul = defaultWebsiteContent('Acme');
    nul.hero.title = 'Hello\u0000';
    // NUL is refused by the input guard of every route, before the schema, naming the field too.
    const r0 = await call('PUT', `${site()}/draft`, a.owner, nul);
    expect(r0.status).toBe(422);
    expect(fields(r0)).toEqual(['hero.title']);
    const bad = defaultWebsiteContent('Acme');
    bad.hero.title = 'Tab\u0009bed';
    bad.tagline = 'two\nlines';
    bad.about.title = '  ';
    bad.faq = [{ q: 'Why?', a: 'Bell\u0007' }];
    const r = await call('PUT', `${site()}/draft`, a.owner, bad);
    expect(r.status).toBe(422);
    expect(fields(r)).toEqual(['about.title', 'faq.0.a', 'hero.title', 'tagline']);
    const many = { ...defaultWebsiteContent('Acme'), faq: Array.from({ length: 41 }, () => ({ q: 'q', a: 'a' })) };
    expect(fields(await call('PUT', `${site()}/draft`, a.owner, many))).toEqual(['faq']);
    const foreign = defaultWebsiteContent('Acme');
    foreign.gallery = [
      { image_key: `${b.id}/website/${'a'.repeat(32)}.webp`, width: 1, height: 1, alt: 'x', caption: '' },
    ];
    expect(fields(await call('PUT', `${site()}/draft`, a.owner, foreign))).toEqual(['gallery.0.image_key']);
  });

  it('takes a draft at every limit, far above the host’s usual body limit', async () => {
    const long = 'x'.repeat(4000);
    const full = {
      ...defaultWebsiteContent('Acme'),
      about: { title: 'About', body: long },
      faq: Array.from({ length: 40 }, (_, i) => ({ q: `Question ${i}?`, a: long })),
    };
    const r = await call('PUT', `${site()}/draft`, a.owner, full);
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    expect(r.body.draft.faq).toHaveLength(40);
  });

  it('saves, publishes, publishes again and rolls back, audited; the snapshot follows', async () => {
    const v1 = { ...defaultWebsiteContent('Acme'), hero: { title: 'First hero', lead: 'Lead', cta: 'Call' } };
    expect((await call('PUT', `${site()}/draft`, a.owner, v1)).body.draft.hero.title).toBe('First hero');
    expect((await snapshot()).version).toBe(0);
    expect((await call('POST', `${site()}/publish`, a.owner)).body.published.version).toBe(1);
    expect((await snapshot()).content.hero.title).toBe('First hero');
    const v2 = { ...v1, hero: { ...v1.hero, title: 'Second hero' }, faq: [{ q: 'New?', a: 'Yes.\n\nReally.' }] };
    await call('PUT', `${site()}/draft`, a.owner, v2);
    expect((await call('POST', `${site()}/publish`, a.owner)).body.published.content.hero.title).toBe('Second hero');
    const back = await call('POST', `${site()}/rollback`, a.owner, { version: 1 });
    expect(back.status).toBe(200);
    expect(back.body.published).toMatchObject({ version: 3, content: { hero: { title: 'First hero' } } });
    expect(back.body.draft.hero.title).toBe('First hero');
    expect(back.body.history.map((h: { version: number }) => h.version)).toEqual([2, 1]);
    expect((await snapshot()).content.hero.title).toBe('First hero');
    const unknown = await call('POST', `${site()}/rollback`, a.owner, { version: 9 });
    expect(unknown.status).toBe(404);
    expect(fields(unknown)).toEqual(['version']);
    const audit = await kit.t.db.query<{ action: string; detail: Record<string, number> }>(
      `SELECT action, detail FROM audit_log WHERE tenant_id = $1 AND action IN ('website.publish', 'website.rollback') ORDER BY id`,
      [a.id],
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['website.publish', 'website.publish', 'website.rollback']);
    expect(audit.rows[2]!.detail).toMatchObject({ restored: 1, version: 3 });
    // Tenant B's site never saw any of it.
    expect((await snapshot(b.id)).version).toBe(0);
  });

  it("follows the tenant's branches and price grids into the published site without another publish", async () => {
    const branch = await call('POST', `/api/tenants/${a.id}/branches`, a.owner, {
      name: 'Denver North',
      zip_codes: ['80211'],
    });
    expect(branch.status).toBe(201);
    const areas = (await snapshot()).catalog.areas;
    expect(areas).toEqual([
      {
        slug: 'denver-north',
        name: 'Denver North',
        zip_codes: ['80211'],
        phone: null,
        address: null,
        branch_id: branch.body.id,
      },
    ]);
    const grid = {
      name: 'Roller Shade',
      bands: { widths_in: [24, 36], drops_in: [36], prices: [[55.5, 70]] },
      options: [],
      mount_allowance_in: { inside: 0, outside: 3 },
    };
    expect((await call('PUT', '/sales/price-grids/roller-shade', a.owner, grid)).status).toBe(200);
    const roller = (await snapshot()).catalog.products.find((p) => p.code === 'roller-shade');
    expect(roller?.from_minor).toBe(5550);
    expect((await snapshot(b.id)).catalog.areas).toEqual([]);
  });
});

describe('gallery images', () => {
  const upload = (token: string, body: Buffer, id = a.id) =>
    kit.app.inject({
      method: 'POST',
      url: `${site(id)}/images`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      payload: body,
    });

  it('re-encodes a wide PNG to a WebP 1600 px wide that only its tenant can read', async () => {
    const wide = await sharp({ create: { width: 2000, height: 500, channels: 3, background: '#c03' } })
      .png()
      .toBuffer();
    const r = await upload(a.owner, wide);
    expect(r.statusCode, r.body).toBe(201);
    const img = JSON.parse(r.body);
    expect(img).toMatchObject({ width: 1600, height: 400 });
    expect(img.image_key).toMatch(new RegExp(`^${a.id}/website/[0-9a-f]{32}\\.webp$`));
    const chunks: Buffer[] = [];
    for await (const c of await readWebsiteImage(kit.deps.objects, a.id, img.image_key)) chunks.push(c as Buffer);
    expect((await sharp(Buffer.concat(chunks)).metadata()).format).toBe('webp');
    await expect(readWebsiteImage(kit.deps.objects, b.id, img.image_key)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const name = img.image_key.split('/').pop();
    const pub = await kit.app.inject({ url: `/api/website-images/${a.id}/${name}` });
    expect([pub.statusCode, pub.headers['content-type']]).toEqual([200, 'image/webp']);
    expect((await kit.app.inject({ url: `/api/website-images/${b.id}/${name}` })).statusCode).toBe(404);
  });

  it('refuses what is not an image, an empty body and an oversized one, naming file', async () => {
    const text = await upload(a.owner, Buffer.from('<svg onload="alert(1)"></svg>'));
    expect(text.statusCode).toBe(415);
    expect(JSON.parse(text.body).errors[0].field).toBe('file');
    expect((await upload(a.owner, Buffer.alloc(0))).statusCode).toBe(422);
    const big = await upload(a.owner, Buffer.alloc(5 * 1024 * 1024 + 1, 1));
    expect(big.statusCode).toBe(413);
    expect(JSON.parse(big.body).errors[0].field).toBe('file');
    expect((await upload(a.office, Buffer.from('x'))).statusCode).toBe(403);
  });
});
