import { registerProblemHandlers } from '@platform/http-kit';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadLandingConfig } from '../config.js';
import { loadContent } from './content.loader.js';
import { registerSite } from './site.routes.js';

// Like the landing app: problem+json handlers, a JSON API route, and the site.
const app = Fastify();
const content = loadContent();
const phone = content.site.phone;

beforeAll(async () => {
  registerProblemHandlers(app);
  app.post('/api/estimate', async () => ({ id: 'x' }));
  await registerSite(app, {
    siteName: 'Brightview Blinds',
    captcha: { scriptUrl: '/c.js', siteKey: 'k' },
    publicUrl: 'https://www.brightviewblinds.example/',
  });
});
afterAll(() => app.close());

const browserGet = (url: string) =>
  app.inject({ url, headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });

describe('a mistyped address', () => {
  it('gets an HTML 404 page with the navigation, a way to an estimate and the page it probably meant', async () => {
    const r = await browserGet('/products/roller-shade');
    expect(r.statusCode).toBe(404);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.body).toContain('<h1>We could not find that page</h1>');
    expect(r.body).toContain('<nav aria-label="Main">');
    expect(r.body).toContain('Did you mean <a href="/products/roller-shades">Custom roller shades</a>?');
    expect(r.body).toContain(`href="/#areas">Choose your area</a>`);
    expect(r.body).toContain(`Call ${phone}`);
    expect(r.body).toContain('<meta name="robots" content="noindex">');
    expect(r.body).not.toContain('rel="canonical"');
    const far = await browserGet('/completely/elsewhere');
    expect(far.statusCode).toBe(404);
    expect(far.body).not.toContain('Did you mean');
  });

  it('keeps problem+json for API paths, files and clients that ask for JSON', async () => {
    for (const [url, accept] of [
      ['/api/estimates', 'text/html'],
      ['/img/nope.svg', '*/*'],
      ['/products/nope', 'application/json'],
    ] as const) {
      const r = await app.inject({ url, headers: { accept } });
      expect(r.statusCode, url).toBe(404);
      expect(r.headers['content-type'], url).toBe('application/problem+json; charset=utf-8');
      expect(r.json(), url).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    }
    const post = await app.inject({ method: 'POST', url: '/products/roller-shades', payload: {} });
    expect(post.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  });
});

describe('a form posted without JavaScript', () => {
  it('posts to a page, not the API, and each form says up front that it needs JavaScript', async () => {
    const r = await browserGet('/faq');
    expect(r.body).toMatch(/<form [^>]*method="post" action="\/request-not-sent" data-endpoint="\/api\/estimate"/);
    expect(r.body).toContain(
      `<noscript><p class="form-alert">This form needs JavaScript for its spam check. Without it, call us at <a href="tel:${content.site.phoneHref}">${phone}</a>`,
    );
    expect((await browserGet('/helpdesk')).body).toMatch(/action="\/request-not-sent" data-endpoint="\/api\/helpdesk"/);
  });

  it('is sent on (303) to a page with the phone number and the helpdesk, never a raw error', async () => {
    const r = await app.inject({
      method: 'POST',
      url: '/request-not-sent',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=Ann&email=ann%40example.com',
    });
    expect(r.statusCode).toBe(303);
    expect(r.headers.location).toBe('/request-not-sent');
    const page = await browserGet('/request-not-sent');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>Your request was not sent</h1>');
    expect(page.body).toContain(`<a href="tel:${content.site.phoneHref}">${phone}</a>`);
    expect(page.body).toContain('href="/helpdesk">Go to the helpdesk</a>');
    // The form parser is the no-JavaScript page's only: the API still takes JSON and nothing else.
    const api = await app.inject({
      method: 'POST',
      url: '/api/estimate',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=Ann',
    });
    expect(api.statusCode).toBe(415);
  });
});

describe('head and footer', () => {
  it('every page has a canonical URL and Open Graph tags on the public origin', async () => {
    const r = await browserGet('/products/roller-shades?gclid=abc');
    expect(r.body).toContain(
      '<link rel="canonical" href="https://www.brightviewblinds.example/products/roller-shades">',
    );
    expect(r.body).toContain(
      '<meta property="og:url" content="https://www.brightviewblinds.example/products/roller-shades">',
    );
    expect(r.body).toContain('<meta property="og:title" content="Custom roller shades">');
    expect(r.body).toContain('<meta property="og:image" content="https://www.brightviewblinds.example/img/share.png">');
    expect((await browserGet('/img/share.png')).headers['content-type']).toBe('image/png');
    expect((await browserGet('/blog/measuring-windows')).body).toContain('<meta property="og:type" content="article">');
  });

  it('without SITE_URL the canonical link is the path and no absolute URL is guessed', async () => {
    const bare = Fastify();
    await registerSite(bare, { siteName: 'Brightview Blinds', captcha: { scriptUrl: '/c.js', siteKey: 'k' } });
    const r = await bare.inject('/about');
    expect(r.body).toContain('<link rel="canonical" href="/about">');
    expect(r.body).not.toContain('og:url');
    await bare.close();
  });

  it('SITE_URL must be an http(s) origin', () => {
    expect(loadLandingConfig({ SITE_URL: 'https://www.brightviewblinds.example' }).SITE_URL).toBe(
      'https://www.brightviewblinds.example',
    );
    expect(() => loadLandingConfig({ SITE_URL: 'www.brightviewblinds.example' })).toThrow(
      /SITE_URL: must be the site's public http\(s\) origin/,
    );
  });

  it('the footer email is on the domain of the company the site is named after', () => {
    const company = loadLandingConfig({})
      .SITE_NAME.toLowerCase()
      .replace(/[^a-z0-9]/g, '');
    const domain = content.site.email.split('@')[1]!.replace(/[^a-z0-9]/g, '');
    expect(domain).toContain(company);
  });
});
