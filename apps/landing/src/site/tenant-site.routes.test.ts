/**
 * Two tenants on one landing host (the real host hook over a database): each host gets its own site
 * from its snapshot, only its own name, colours, products, contact and pixel; a change heard from the
 * source is served on the next request; the platform's host and unknown hosts are unchanged.
 * PGlite and PostgreSQL (TEST_DATABASE_URL).
 */
import { parseFormSource } from '@platform/attribution';
import { createStaticSnapshotSource, type StaticSnapshotSource } from '@platform/website';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestLanding, type TestLanding } from '../../test/support/landing-harness.js';
import { alphaSnapshot, betaSnapshot } from '../../test/support/website-fixtures.js';

let h: TestLanding;
let app: FastifyInstance;
let source: StaticSnapshotSource;
let alpha: string;
let beta: string;

const tenant = async (slug: string, name: string): Promise<string> =>
  (await h.db.query<{ id: string }>(`INSERT INTO tenants (slug, name) VALUES ($1, $2) RETURNING id`, [slug, name]))
    .rows[0]!.id;

beforeAll(async () => {
  source = createStaticSnapshotSource({});
  h = await startTestLanding({ TENANTS_HOST: 'tenants.test' }, { site: true, websites: source });
  app = h.landing.app;
  alpha = await tenant('alpha', 'Alpha Ltd');
  beta = await tenant('beta', 'Beta Ltd');
  source.set(alpha, alphaSnapshot(alpha));
  source.set(beta, betaSnapshot(beta));
}, 60_000);
afterAll(() => h?.close());

const get = async (host: string, url: string, headers: Record<string, string> = {}) => {
  const r = await app.inject({
    url,
    headers: { host, 'accept-encoding': 'identity', accept: 'text/html', ...headers },
  });
  return { status: r.statusCode, body: r.body, headers: r.headers };
};
const A = 'alpha.tenants.test';
const B = 'beta.tenants.test';

describe("a tenant's site on the landing host", () => {
  it("shows only the tenant's own name, colours, products and contact", async () => {
    const a = (await get(A, '/')).body;
    const b = (await get(B, '/')).body;
    expect(a).toContain('Alpha Shades');
    expect(a).toContain('--brand:#6a1b9a');
    expect(a).toContain('href="/products/roller-shades"');
    expect(a).toContain('tel:3035550100');
    expect(a).toContain('hello@alpha-shades.example');
    expect(a).toContain('https://instagram.com/alphashades');
    expect(a).not.toMatch(/Beta Blinds|wood-blinds|beta-blinds\.example|Acme Blinds/);
    expect(b).toContain('Beta Blinds');
    expect(b).toContain('--brand:#1b5e20');
    expect(b).toContain('href="/products/wood-blinds"');
    expect(b).not.toMatch(/Alpha Shades|roller-shades|alpha-shades\.example|#6a1b9a|Acme Blinds/);
  });

  it("loads a tenant's own Meta pixel on its pages only, and none where it set none", async () => {
    for (const path of ['/', '/faq', '/products/roller-shades']) {
      const page = (await get(A, path)).body;
      expect(page).toContain('fbq(\'init\',"111222333444")');
    }
    expect((await get(B, '/')).body).not.toContain('fbq');
    expect((await get('localhost', '/')).body).not.toContain('fbq');
  });

  it('keeps the platform site on its own host, and the not-found page for unknown hosts', async () => {
    const own = await get('localhost', '/');
    expect(own.status).toBe(200);
    expect(own.body).toContain('Acme Blinds');
    expect(own.body).not.toContain('--brand:#');
    expect((await get('localhost', '/blog')).status).toBe(200);
    expect((await get(A, '/blog')).status).toBe(404);
    const unknown = await get('nobody.tenants.test', '/');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toContain('Site not found');
  });

  it('serves a change heard from the source on the next request, and reads no snapshot while cached', async () => {
    await get(A, '/about');
    const reads = source.reads;
    await get(A, '/');
    await get(A, '/faq');
    expect(source.reads).toBe(reads);
    const changed = alphaSnapshot(alpha);
    changed.content.hero.title = 'Autumn sale on every shade';
    source.set(alpha, changed);
    expect((await get(A, '/')).body).toContain('Autumn sale on every shade');
    expect(source.reads).toBe(reads + 1);
    source.set(alpha, alphaSnapshot(alpha));
  });

  it('escapes whatever the owner wrote: a script in the hero arrives as text', async () => {
    const evil = alphaSnapshot(alpha);
    evil.content.hero.title = '<script>alert(1)</script>';
    source.set(alpha, evil);
    const page = (await get(A, '/')).body;
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).not.toContain('<script>alert(1)');
    expect((await get(A, '/about')).body).toContain('<p>We install &lt;b&gt;every&lt;/b&gt; shade ourselves.</p>');
    source.set(alpha, alphaSnapshot(alpha));
  });

  it('lists its pages in sitemap.xml and robots.txt on its primary host, with canonical and Open Graph URLs', async () => {
    const map = await get(A, '/sitemap.xml', { accept: '*/*' });
    expect(map.headers['content-type']).toContain('application/xml');
    expect(map.body).toContain('<loc>https://alpha.tenants.test/products/shutters</loc>');
    expect(map.body).toContain('<loc>https://alpha.tenants.test/areas/louisville</loc>');
    expect(map.body).toContain('<loc>https://alpha.tenants.test/helpdesk</loc>');
    expect((await get(B, '/sitemap.xml')).body).not.toContain('/helpdesk');
    expect((await get(B, '/robots.txt')).body).toContain('Sitemap: https://www.beta-blinds.example/sitemap.xml');
    expect((await get('localhost', '/robots.txt')).body).toContain('Disallow: /lp/');
    const home = (await get(A, '/')).body;
    expect(home).toContain('<link rel="canonical" href="https://alpha.tenants.test/">');
    expect(home).toContain('<meta property="og:url" content="https://alpha.tenants.test/">');
    expect(home).toContain('<title>Alpha Shades | Boulder window shades</title>');
    expect(home).toContain('content="Custom shades measured and installed across Boulder County."');
    expect((await get(B, '/faq')).body).toContain('href="https://www.beta-blinds.example/faq"');
  });

  it('renders product, area, gallery and helpdesk pages from the snapshot', async () => {
    expect((await get(A, '/products/roller-shades')).body).toContain('from $125');
    expect((await get(A, '/products/shutters')).body).toContain('from $399.99');
    expect((await get(B, '/products/wood-blinds')).body).not.toMatch(/from \$/);
    const area = (await get(A, '/areas/boulder')).body;
    expect(area).toContain('<li>80301</li>');
    expect(area).toContain('tel:3035550101');
    expect(area).toContain('value="local-boulder_inline"');
    const gallery = (await get(A, '/gallery')).body;
    expect(gallery).toContain(
      '<img class="art" src="/media/alpha/gallery/kitchen%20one.webp" width="800" height="600" alt="Kitchen with roller shades" loading="lazy">',
    );
    expect((await get(A, '/helpdesk')).status).toBe(200);
    const noHelpdesk = await get(B, '/helpdesk');
    expect(noHelpdesk.status).toBe(404);
    expect(noHelpdesk.body).toContain('Beta Blinds');
    expect(noHelpdesk.body).not.toContain('href="/helpdesk"');
  });

  it('keeps the forms, popup and bot check of the platform site on every tenant page', async () => {
    const home = (await get(A, '/')).body;
    expect(home).toContain('value="home_inline"');
    expect(home).toContain('data-template="home_popup"');
    expect(home).toContain('data-endpoint="/api/estimate"');
    expect(home).toMatch(/data-captcha-src="[^"]+" data-captcha-key="[^"]+"/);
    expect((await get(A, '/products/roller-shades')).body).toContain('data-template="product-roller-shades_popup"');
    // Every value a tenant page authors is one the backend's parser places (none is `unknown`).
    const sitemap = (await get(A, '/sitemap.xml')).body;
    const paths = [...sitemap.matchAll(/<loc>https:\/\/[^/]+(\/[^<]*)<\/loc>/g)].map((m) => m[1]!);
    expect(paths.length).toBeGreaterThan(7);
    for (const path of paths) {
      const body = (await get(A, path)).body;
      const values = [...body.matchAll(/name="form_source" value="([^"]+)"/g)].map((m) => m[1]!);
      for (const v of values) expect(parseFormSource(v).kind, `${path}: ${v}`).not.toBe('unknown');
    }
  });

  it('answers a mistyped address with a 404 in the tenant brand, and revalidates pages with their ETag', async () => {
    const miss = await get(A, '/products/roller-shade');
    expect(miss.status).toBe(404);
    expect(miss.body).toContain('--brand:#6a1b9a');
    expect(miss.body).toContain('Did you mean <a href="/products/roller-shades">');
    expect((await get(A, '/api/nothing', { accept: 'application/json' })).status).toBe(404);
    const first = await get(A, '/faq');
    const again = await get(A, '/faq', { 'if-none-match': String(first.headers.etag) });
    expect(again.status).toBe(304);
  });
});
