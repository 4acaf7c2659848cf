import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { parseFormSource } from '@platform/attribution';
import { ConfigError } from '@platform/kernel';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';

import { CONTENT_DIR, ContentError, loadContent } from './content.loader.js';
import { authoredFormSources, runtimeFormSources } from './form-sources.js';
import { registerSite, sitePages } from './site.routes.js';

const dirs: string[] = [];
/** A scratch copy of content/ with one JSON file edited the way a marketer would. */
function contentWith(file: string, edit: (data: any) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'site-content-'));
  dirs.push(dir);
  cpSync(CONTENT_DIR, dir, { recursive: true });
  const data = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  edit(data);
  writeFileSync(join(dir, file), JSON.stringify(data, null, 2));
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const newProduct = {
  slug: 'vertical-blinds',
  name: 'Vertical blinds',
  short: 'Vanes that turn and stack to the side, made for sliding doors.',
  intro: 'Vertical blinds hang from a headrail and draw to one side.',
  features: ['Fabric or vinyl vanes'],
  priceFrom: 'From $199 per door, measured and installed',
  art: 'blinds',
};

const errorOf = (fn: () => unknown): ContentError => {
  try {
    fn();
  } catch (e) {
    return e as ContentError;
  }
  throw new Error('expected a ContentError');
};

describe('site content', () => {
  it('a product added as docs/site.md says gets its page, form, footer link and checkbox on restart', async () => {
    const dir = contentWith('products.json', (p) => p.push(newProduct));
    const content = loadContent({ dir });
    expect(content.products.map((p) => p.slug)).toContain('vertical-blinds');
    expect(sitePages(content).map((p) => p.meta.path)).toContain('/products/vertical-blinds');
    const values = authoredFormSources(content).map((a) => a.value);
    expect(values).toContain('product-vertical-blinds_inline');
    for (const v of runtimeFormSources(content)) expect(parseFormSource(v).kind, v).not.toBe('unknown');

    const app = Fastify();
    await registerSite(app, {
      siteName: 'Brightview Blinds',
      captcha: { scriptUrl: '/c.js', siteKey: 'k' },
      contentDir: dir,
    });
    const page = await app.inject('/products/vertical-blinds');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('name="form_source" value="product-vertical-blinds_inline"');
    expect(page.body).toContain('src="/img/blinds.svg"');
    const home = await app.inject('/about');
    expect(home.body).toContain('<a href="/products/vertical-blinds">Vertical blinds</a>');
    expect((await app.inject('/areas/denver-co')).body).toContain('name="products" value="vertical-blinds"');
    await app.close();
  });

  it('a missing field stops the start with a message naming the file, the entry and the field', () => {
    const dir = contentWith('products.json', (p) => {
      delete p[2].priceFrom;
    });
    const err = errorOf(() => loadContent({ dir }));
    expect(err).toBeInstanceOf(ContentError);
    // runService prints a ConfigError's message without a stack and exits 1.
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toBe(
      'Invalid site content in content/products.json:\n  [2] ("plantation-shutters").priceFrom: is missing (expected string)',
    );
    expect(err.message).not.toMatch(/ZodError|Invalid input/);
  });

  it('an unknown art name is refused at start, listing the illustrations there are', () => {
    const dir = contentWith('products.json', (p) => {
      p[0].art = 'roller-shade';
    });
    const err = errorOf(() => loadContent({ dir }));
    expect(err.message).toContain('content/products.json');
    expect(err.message).toContain(
      '[0] ("roller-shades").art: must be one of the illustrations in public/img/: blinds, cellular,',
    );
  });

  it('refuses links to products that do not exist, duplicate slugs, bad JSON and bad dates', () => {
    expect(
      errorOf(() =>
        loadContent({
          dir: contentWith('landing-pages.json', (l) => {
            l.v2[1].product = 'rolling-shades';
          }),
        }),
      ).message,
    ).toContain('v2[1] ("free-measure").product: "rolling-shades" is not a product slug in products.json');
    expect(
      errorOf(() =>
        loadContent({
          dir: contentWith('site.json', (s) => {
            s.gallery.items[0].product = 'nope';
          }),
        }),
      ).message,
    ).toContain('content/site.json:\n  gallery.items[0].product: "nope" is not a product slug');
    expect(
      errorOf(() => loadContent({ dir: contentWith('locations.json', (l) => l.push({ ...l[0] })) })).message,
    ).toContain('"denver-co" is used twice');
    expect(
      errorOf(() =>
        loadContent({
          dir: contentWith('site.json', (s) => {
            s.email = 'hello at example';
          }),
        }),
      ).message,
    ).toContain('content/site.json:\n  email: must be an email address');
    const broken = contentWith('locations.json', () => undefined);
    writeFileSync(join(broken, 'locations.json'), '[{"slug": "denver-co",]');
    expect(errorOf(() => loadContent({ dir: broken })).message).toMatch(
      /^Invalid site content in content\/locations.json:\n {2}is not valid JSON/,
    );
    const post = contentWith('site.json', () => undefined);
    writeFileSync(join(post, 'blog', 'new-post.md'), '---\ntitle: New\ndate: 25 Nov 2026\nsummary: S\n---\nText');
    expect(errorOf(() => loadContent({ dir: post })).message).toContain(
      'content/blog/new-post.md:\n  date: must be a date as YYYY-MM-DD',
    );
  });

  it('a popup page that is not a page of the site is refused', () => {
    const dir = contentWith('popup-pages.json', (p) =>
      p.pages.push({ path: '/products/roller-shade', template: 'product-roller-shade_popup' }),
    );
    expect(errorOf(() => sitePages(loadContent({ dir }))).message).toContain(
      '/products/roller-shade is not a page of the site',
    );
  });
});
