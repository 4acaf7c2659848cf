/**
 * The site's own Meta pixel and Conversions API token (docs/website.md): the token sealed at rest,
 * never answered, readable server-side only for its tenant; the pixel id in that tenant's snapshot
 * only; field-named problems; tenant B refused.
 */
import { randomBytes } from 'node:crypto';

import { readMetaCapiToken, readSnapshot } from '@platform/website';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ControlKit, startControlKit } from '../../testing/control-test-kit.js';

let kit: ControlKit;
const a = { id: '', owner: '' };
const b = { id: '', owner: '' };

beforeAll(async () => {
  kit = await startControlKit({ SECRETS_KEYRING: `k1:${randomBytes(32).toString('base64')}` });
  const ta = await kit.tenant('acme-blinds', 'professional');
  Object.assign(a, { id: ta.id, owner: ta.token });
  const tb = await kit.tenant('bravo-shades', 'professional');
  Object.assign(b, { id: tb.id, owner: tb.token });
}, 60_000);
afterAll(async () => kit?.close());

async function call(method: string, url: string, token: string, body?: unknown) {
  const r = await kit.app.inject({
    method: method as 'GET',
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { payload: body as object }),
  });
  return { status: r.statusCode, body: r.body ? JSON.parse(r.body) : undefined };
}

const site = (id = a.id) => `/api/tenants/${id}/website`;
const fields = (r: { body: { errors?: { field: string }[] } }) => (r.body.errors ?? []).map((e) => e.field).sort();
const snapshot = (id = a.id) => readSnapshot(kit.deps.db, id, 'tenants.test');

describe('Meta pixel and Conversions API token', () => {
  it('keeps the token sealed and per tenant, shows only that it is set, and puts the pixel in the snapshot', async () => {
    const token = `EAAB${'x'.repeat(40)}`;
    const put = await call('PUT', `${site()}/tracking`, a.owner, {
      meta_pixel_id: '123456789012345',
      meta_capi_token: token,
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toEqual({ meta_pixel_id: '123456789012345', meta_capi_token_set: true });
    const stored = await kit.t.db.query<{ meta_capi_token_enc: string }>(
      `SELECT meta_capi_token_enc FROM website_tracking`,
    );
    expect(JSON.stringify(stored.rows)).not.toContain(token);
    expect(await readMetaCapiToken(kit.deps.db, kit.deps.box, a.id)).toBe(token);
    expect(await readMetaCapiToken(kit.deps.db, kit.deps.box, b.id)).toBeNull();
    expect((await snapshot()).meta_pixel_id).toBe('123456789012345');
    expect((await snapshot(b.id)).meta_pixel_id).toBeNull();
    // Leaving the token out keeps it; null removes it.
    await call('PUT', `${site()}/tracking`, a.owner, { meta_pixel_id: '123456789012345' });
    expect(await readMetaCapiToken(kit.deps.db, kit.deps.box, a.id)).toBe(token);
    expect(
      (await call('PUT', `${site()}/tracking`, a.owner, { meta_pixel_id: null, meta_capi_token: null })).body,
    ).toEqual({ meta_pixel_id: null, meta_capi_token_set: false });
    const bad = await call('PUT', `${site()}/tracking`, a.owner, { meta_pixel_id: 'abc', meta_capi_token: 'short' });
    expect(fields(bad)).toEqual(['meta_capi_token', 'meta_pixel_id']);
    expect((await call('GET', `${site(a.id)}/tracking`, b.owner)).status).toBe(404);
  });
});
