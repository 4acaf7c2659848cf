/**
 * POST /api/tenants/{id}/website/preview: owners and admins get a short-lived link to their draft on
 * their own host; the token in it opens only for that tenant, with the keyring the landing shares.
 * Office staff are refused and another tenant's id is 404.
 */
import { randomBytes } from 'node:crypto';

import { createSecretBox, parseKeyring } from '@platform/secrets';
import { previewTokenValid, WEBSITE_PREVIEW_TTL_MS } from '@platform/website';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ControlKit, startControlKit } from '../../testing/control-test-kit.js';

const KEYRING = `k1:${randomBytes(32).toString('base64')}`;
let kit: ControlKit;
const a = { id: '', owner: '', office: '' };
const b = { id: '', owner: '' };

beforeAll(async () => {
  kit = await startControlKit({ SECRETS_KEYRING: KEYRING });
  const ta = await kit.tenant('acme-blinds', 'professional');
  Object.assign(a, { id: ta.id, owner: ta.token, office: (await kit.member(ta.id, 'office')).token });
  const tb = await kit.tenant('bravo-shades', 'professional');
  Object.assign(b, { id: tb.id, owner: tb.token });
}, 60_000);
afterAll(() => kit?.close());

const post = async (id: string, token: string) => {
  const r = await kit.app.inject({
    method: 'POST',
    url: `/api/tenants/${id}/website/preview`,
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: r.statusCode, body: r.json() as { url: string; expires_at: string } };
};

describe('a draft preview link', () => {
  it("points at /_preview on the tenant's own host with a token only that tenant's host accepts", async () => {
    const before = Date.now();
    const r = await post(a.id, a.owner);
    expect(r.status).toBe(200);
    const url = new URL(r.body.url);
    expect(url.hostname).toMatch(/^acme-blinds\./);
    expect(url.pathname).toBe('/_preview');
    const token = url.searchParams.get('token')!;
    const box = createSecretBox(parseKeyring(KEYRING));
    expect(previewTokenValid(box, a.id, token)).toBe(true);
    expect(previewTokenValid(box, b.id, token)).toBe(false);
    expect(previewTokenValid(box, a.id, token, before + WEBSITE_PREVIEW_TTL_MS + 1000)).toBe(false);
    expect(Date.parse(r.body.expires_at) - before).toBeLessThanOrEqual(WEBSITE_PREVIEW_TTL_MS + 1000);
  });

  it('refuses office staff and another tenant', async () => {
    expect((await post(a.id, a.office)).status).toBe(403);
    expect((await post(a.id, b.owner)).status).toBe(404);
  });
});
