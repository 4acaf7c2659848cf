import { parseFormSource } from '@platform/attribution';
import { describe, expect, it } from 'vitest';

import { loadContent } from './content.loader.js';
import { authoredFormSources, runtimeFormSources } from './form-sources.js';

const content = loadContent();
const authored = authoredFormSources(content);

describe('form_source values authored by the site', () => {
  it('follow the spec table: one per product, location, LP v2 placement and popup page; gallery, faq; legacy defaults', () => {
    const count = (capture: string): number => authored.filter((a) => a.capture === capture).length;
    const values = authored.map((a) => a.value);
    expect(values).toEqual(expect.arrayContaining(content.products.map((p) => `product-${p.slug}_inline`)));
    expect(values).toEqual(expect.arrayContaining(content.locations.map((l) => `local-${l.slug}_inline`)));
    expect(values).toEqual(expect.arrayContaining(['gallery_inline', 'faq_inline']));
    expect(count('inline')).toBe(content.products.length + content.locations.length + 2);
    expect(count('l2-popup')).toBe(content.popupPages.size);
    expect(count('lp-v2')).toBe(content.lpV2.length * 3);
    expect(count('legacy-default')).toBe(content.lpLegacy.length);
  });

  it('every authored value parses with the backend parser, and none is unknown', () => {
    const unknown = authored.filter((a) => parseFormSource(a.value).kind === 'unknown');
    expect(unknown).toEqual([]);
  });

  it('every runtime value (templates with _scroll, _dwell, _exit, _footer, _force) parses to its kind', () => {
    const values = runtimeFormSources(content);
    // Inline values, each popup template bare and with its 5 suffixes, 3 per LP v2 page, one legacy default.
    expect(values.length).toBe(
      content.products.length +
        content.locations.length +
        2 +
        content.popupPages.size * 6 +
        content.lpV2.length * 3 +
        1,
    );
    for (const v of values) expect(parseFormSource(v).kind, v).not.toBe('unknown');
    const popup = parseFormSource('product-roller-shades_popup_exit');
    expect(popup).toMatchObject({
      kind: 'popup',
      template: 'product-roller-shades_popup',
      trigger: 'exit',
      forced: false,
    });
    expect(parseFormSource('home_popup_force')).toMatchObject({ kind: 'popup', forced: true });
  });

  it('each value maps to the kind the spec gives its capture point', () => {
    const kinds: Record<string, string[]> = {
      inline: ['product_inline', 'local_inline', 'page_inline'],
      'l2-popup': ['popup'],
      'lp-v2': ['lp_v2'],
      'legacy-default': ['legacy_default'],
    };
    for (const a of authored) expect(kinds[a.capture], a.value).toContain(parseFormSource(a.value).kind);
    // The legacy pages send no form_source at all, which the parser reads as the default.
    expect(parseFormSource(undefined)).toMatchObject({ kind: 'legacy_default', defaulted: true });
  });

  it('popup templates are unique and named after their page', () => {
    const templates = [...content.popupPages.values()];
    expect(new Set(templates).size).toBe(templates.length);
    for (const [path, t] of content.popupPages) {
      const page =
        path === '/'
          ? 'home'
          : path === '/blog'
            ? 'blog-index'
            : path.slice(1).replace('products/', 'product-').replace('areas/', 'local-').replace('blog/', 'blog-');
      expect(t).toBe(`${page}_popup`);
    }
  });
});
