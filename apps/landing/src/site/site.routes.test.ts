import { gunzipSync } from 'node:zlib';

import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadContent } from './content.loader.js';
import { authoredFormSources } from './form-sources.js';
import { registerSite, sitePages } from './site.routes.js';

const app = Fastify();
const content = loadContent();
const pages = sitePages(content);

beforeAll(async () => {
  await registerSite(app, {
    siteName: 'Acme Blinds',
    captcha: { scriptUrl: '/local-captcha/api.js', siteKey: 'k-123' },
  });
});
afterAll(() => app.close());

const get = async (url: string): Promise<{ status: number; body: string; headers: Record<string, unknown> }> => {
  const r = await app.inject({ url, headers: { 'accept-encoding': 'identity' } });
  return { status: r.statusCode, body: r.body, headers: r.headers };
};

describe('the site', () => {
  it('has a page for every product, location, LP and post in content/, plus the core pages', () => {
    const paths = pages.map((p) => p.meta.path);
    const expected = [
      '/',
      '/about',
      '/gallery',
      '/faq',
      '/helpdesk',
      '/blog',
      ...content.posts.map((p) => `/blog/${p.slug}`),
      ...content.products.map((p) => `/products/${p.slug}`),
      ...content.locations.map((l) => `/areas/${l.slug}`),
      ...content.lpV2.map((l) => `/lp/${l.slug}`),
      ...content.lpLegacy.map((l) => `/go/${l.slug}`),
    ];
    expect([...paths].sort()).toEqual(expected.sort());
    // The L2 popup is on the pages popup-pages.json lists (the spec caps them at 25), no others.
    const popupPaths = pages.filter((p) => p.popup?.mode === 'auto').map((p) => p.meta.path);
    expect(popupPaths.sort()).toEqual([...content.popupPages.keys()].sort());
    expect(popupPaths.length).toBeLessThanOrEqual(25);
  });

  it('serves every page as HTML with its name, bot-check config and hashed bundle', async () => {
    for (const p of pages) {
      const r = await get(p.meta.path);
      expect(r.status, p.meta.path).toBe(200);
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(r.body).toContain('Acme Blinds');
      expect(r.body).toContain('data-captcha-src="/local-captcha/api.js" data-captcha-key="k-123"');
      expect(r.body).toMatch(/<script type="module" src="\/assets\/site\.[0-9a-f]{10}\.js"><\/script>/);
      expect(r.body).not.toMatch(/lorem|ipsum|TODO|placeholder text/i);
      expect(r.body).not.toContain('recaptcha/api.js');
      const ids = [...r.body.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
      expect(
        ids.filter((id, i) => ids.indexOf(id) !== i),
        `duplicate ids on ${p.meta.path}`,
      ).toEqual([]);
      // Without the bundle a form must never fall back to GET (personal data in the URL).
      expect(r.body).not.toMatch(/<form(?![^>]*method="post")/);
    }
  });

  it('puts each authored form_source value in its page', async () => {
    for (const a of authoredFormSources(content)) {
      const r = await get(a.path);
      if (a.capture === 'legacy-default') expect(r.body, a.path).not.toContain('name="form_source"');
      else expect(r.body, `${a.path} ${a.value}`).toContain(`name="form_source" value="${a.value}"`);
    }
    const lp = await get('/lp/spring-sale');
    expect(lp.body).toContain('data-template="lp-spring-sale_hero" data-mode="cta"');
    expect(lp.body).toContain('data-lp-slug="spring-sale"');
    const home = await get('/');
    expect(home.body).toContain('data-template="home_popup" data-mode="auto"');
    expect((await get('/helpdesk')).body).toContain('data-endpoint="/api/helpdesk" data-action="helpdesk"');
    expect((await get('/helpdesk')).body).not.toContain('estimate-popup');
  });

  it('serves the bundle compressed, immutable, under 15 KB gzipped', async () => {
    const html = (await get('/')).body;
    const path = /src="(\/assets\/site\.[0-9a-f]+\.js)"/.exec(html)![1]!;
    const r = await app.inject({ url: path, headers: { 'accept-encoding': 'gzip' } });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-encoding']).toBe('gzip');
    expect(r.headers['cache-control']).toContain('immutable');
    expect(r.rawPayload.length).toBeLessThan(15 * 1024);
    expect(gunzipSync(r.rawPayload).toString()).toContain('lp_popup_dismissed');
    const again = await app.inject({ url: path, headers: { 'if-none-match': String(r.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it('serves the illustrations and robots.txt from public/', async () => {
    expect((await get('/img/roller.svg')).headers['content-type']).toBe('image/svg+xml');
    expect((await get('/robots.txt')).status).toBe(200);
  });
});
