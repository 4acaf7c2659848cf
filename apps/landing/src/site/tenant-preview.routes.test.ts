/**
 * /_preview on a tenant's host: a token the console minted (same keyring) shows the tenant's DRAFT,
 * never indexed or stored, while the public site keeps the published version; an expired, forged,
 * another keyring's or another tenant's token, and the platform's host, get a 404.
 */
import { randomBytes } from 'node:crypto';

import { withTenant } from '@platform/db';
import { createSecretBox, parseKeyring } from '@platform/secrets';
import { defaultWebsiteContent, mintPreviewToken, saveWebsiteDraft, WEBSITE_PREVIEW_TTL_MS } from '@platform/website';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestLanding, type TestLanding } from '../../test/support/landing-harness.js';
import { PREVIEW_FORM_NOTE } from './forms.view.js';

const KEYRING = `k1:${randomBytes(32).toString('base64')}`;
const box = createSecretBox(parseKeyring(KEYRING));
let h: TestLanding;
let alpha = '';

const get = async (host: string, url: string) => {
  const r = await h.landing.app.inject({ url, headers: { host, accept: 'text/html', 'accept-encoding': 'identity' } });
  return { status: r.statusCode, body: r.body, headers: r.headers };
};
const preview = (token: string, path = '') =>
  `/_preview?token=${encodeURIComponent(token)}${path ? `&path=${encodeURIComponent(path)}` : ''}`;

beforeAll(async () => {
  h = await startTestLanding({ TENANTS_HOST: 'tenants.test', SECRETS_KEYRING: KEYRING }, { site: true });
  const tenant = async (slug: string) =>
    (await h.db.query<{ id: string }>(`INSERT INTO tenants (slug, name) VALUES ($1, $1) RETURNING id`, [slug])).rows[0]!
      .id;
  alpha = await tenant('alpha');
  await tenant('beta');
  const draft = defaultWebsiteContent('Alpha Shades');
  draft.hero.title = 'Draft hero not yet live';
  draft.faq = [{ q: 'Is this the draft?', a: 'Yes, only in preview.' }];
  await withTenant(h.db, alpha, (tx) => saveWebsiteDraft(tx, alpha, draft));
}, 60_000);
afterAll(() => h?.close());

describe("a tenant's draft preview on the landing host", () => {
  it('shows the draft to the token holder, noindex and no-store, while the public site stays published', async () => {
    const r = await get('alpha.tenants.test', preview(mintPreviewToken(box, alpha)));
    expect(r.status).toBe(200);
    expect(r.body).toContain('Draft hero not yet live');
    expect(r.body).toContain('<meta name="robots" content="noindex">');
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(r.headers['referrer-policy']).toBe('no-referrer');
    expect((await get('alpha.tenants.test', '/')).body).not.toContain('Draft hero not yet live');
  });

  it('says it is a preview in a named banner and switches every form off, which the live site does not', async () => {
    const r = await get('alpha.tenants.test', preview(mintPreviewToken(box, alpha), '/faq'));
    expect(r.body).toContain('<aside class="preview-banner" aria-labelledby="preview-banner-title">');
    expect(r.body).toContain('<strong id="preview-banner-title">Preview — not published</strong>');
    const forms = r.body.match(/<form /g)!.length;
    expect(forms).toBeGreaterThanOrEqual(2); // the FAQ's inline form and the popup's
    expect(r.body.match(/<button type="submit"[^>]* disabled>/g)).toHaveLength(forms);
    expect(r.body.split(PREVIEW_FORM_NOTE).length - 1).toBe(forms);
    const live = (await get('alpha.tenants.test', '/faq')).body;
    expect(live).not.toContain('preview-banner');
    expect(live).not.toContain(PREVIEW_FORM_NOTE);
    expect(live).not.toMatch(/<button type="submit"[^>]* disabled/);
  });

  it('previews another page of the draft by path', async () => {
    const r = await get('alpha.tenants.test', preview(mintPreviewToken(box, alpha), '/faq'));
    expect(r.status).toBe(200);
    expect(r.body).toContain('Is this the draft?');
    expect((await get('alpha.tenants.test', '/faq')).body).not.toContain('Is this the draft?');
  });

  it("is the tenant's 404 for an expired, forged, other keyring's or other tenant's token", async () => {
    const other = createSecretBox(parseKeyring(`k1:${randomBytes(32).toString('base64')}`));
    const good = mintPreviewToken(box, alpha);
    const tokens = {
      expired: mintPreviewToken(box, alpha, Date.now() - WEBSITE_PREVIEW_TTL_MS - 1000),
      forged: `${good.slice(0, -4)}AAAA`,
      otherKeyring: mintPreviewToken(other, alpha),
      empty: '',
    };
    for (const [what, token] of Object.entries(tokens)) {
      const r = await get('alpha.tenants.test', preview(token));
      expect(r.status, what).toBe(404);
      expect(r.body, what).not.toContain('Draft hero not yet live');
    }
    const onBeta = await get('beta.tenants.test', preview(good));
    expect(onBeta.status).toBe(404);
    expect(onBeta.body).not.toContain('Draft hero');
    expect((await get('alpha.tenants.test', '/_preview')).status).toBe(404);
  });

  it("is 404 on the platform's own host", async () => {
    const r = await get('localhost', preview(mintPreviewToken(box, alpha)));
    expect(r.status).toBe(404);
    expect(r.body).not.toContain('Draft hero');
  });
});
