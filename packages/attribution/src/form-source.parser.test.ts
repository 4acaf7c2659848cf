import { describe, expect, it } from 'vitest';

import {
  captureLayer,
  type FormSource,
  isCallback,
  KNOWN_MAGNET_VALUES,
  L2_TRIGGER_SUFFIXES,
  parseFormSource,
} from './form-source.parser.js';

/** A parse without `raw`, which is always the value as given (checked once, below). */
type WithoutRaw<T> = T extends unknown ? Omit<T, 'raw'> : never;

const cases: Array<[string, WithoutRaw<FormSource>]> = [
  // L1 inline: product pages
  ['product-roller-shades_inline', { kind: 'product_inline', product: 'roller-shades' }],
  ['product-shutters_inline', { kind: 'product_inline', product: 'shutters' }],
  // L1 inline: local pages
  ['local-austin-tx_inline', { kind: 'local_inline', fullSlug: 'austin-tx' }],
  ['local-texas/round-rock_inline', { kind: 'local_inline', fullSlug: 'texas/round-rock' }],
  // L1 inline: gallery / faq
  ['gallery_inline', { kind: 'page_inline', page: 'gallery' }],
  ['home_inline', { kind: 'page_inline', page: 'home' }],
  ['faq_inline', { kind: 'page_inline', page: 'faq' }],
  // default
  ['lp_form_legacy', { kind: 'legacy_default', defaulted: false }],
  // L2 popup: template + trigger
  [
    'home_popup_scroll',
    {
      kind: 'popup',
      template: 'home_popup',
      page: 'home',
      trigger: 'scroll',
      forced: false,
      callback: false,
    },
  ],
  [
    'home_popup_dwell',
    {
      kind: 'popup',
      template: 'home_popup',
      page: 'home',
      trigger: 'dwell',
      forced: false,
      callback: false,
    },
  ],
  [
    'product-roller-shades_popup_exit',
    {
      kind: 'popup',
      template: 'product-roller-shades_popup',
      page: 'product-roller-shades',
      trigger: 'exit',
      forced: false,
      callback: false,
    },
  ],
  [
    'blog-post_popup_footer',
    {
      kind: 'popup',
      template: 'blog-post_popup',
      page: 'blog-post',
      trigger: 'footer',
      forced: false,
      callback: false,
    },
  ],
  [
    'local-austin-tx_popup',
    {
      kind: 'popup',
      template: 'local-austin-tx_popup',
      page: 'local-austin-tx',
      trigger: null,
      forced: false,
      callback: false,
    },
  ],
  // L2 forced by QA
  [
    'home_popup_force',
    {
      kind: 'popup',
      template: 'home_popup',
      page: 'home',
      trigger: null,
      forced: true,
      callback: false,
    },
  ],
  [
    'home_popup_exit_force',
    {
      kind: 'popup',
      template: 'home_popup',
      page: 'home',
      trigger: 'exit',
      forced: true,
      callback: false,
    },
  ],
  // L3 phone fallback
  [
    'home_popup_phone1',
    {
      kind: 'popup',
      template: 'home_popup',
      page: 'home',
      trigger: null,
      forced: false,
      callback: true,
    },
  ],
  [
    'about_popup_scroll_phone1',
    {
      kind: 'popup',
      template: 'about_popup',
      page: 'about',
      trigger: 'scroll',
      forced: false,
      callback: true,
    },
  ],
  [
    'faq_popup_force_phone1',
    {
      kind: 'popup',
      template: 'faq_popup',
      page: 'faq',
      trigger: null,
      forced: true,
      callback: true,
    },
  ],
  // L4 magnet popups
  ['about_magnet_pricing_popup', { kind: 'magnet', page: 'about', magnet: 'pricing', widget: 'popup' }],
  ['blog-index_magnet_pricing_popup', { kind: 'magnet', page: 'blog-index', magnet: 'pricing', widget: 'popup' }],
  ['blog-post_magnet_pricing_popup', { kind: 'magnet', page: 'blog-post', magnet: 'pricing', widget: 'popup' }],
  ['gallery_magnet_lookbook_popup', { kind: 'magnet', page: 'gallery', magnet: 'lookbook', widget: 'popup' }],
  // inline magnet widgets
  ['home_magnet_pricing', { kind: 'magnet', page: 'home', magnet: 'pricing', widget: 'inline' }],
  ['about_magnet_pricing', { kind: 'magnet', page: 'about', magnet: 'pricing', widget: 'inline' }],
  ['blog-index_magnet_pricing', { kind: 'magnet', page: 'blog-index', magnet: 'pricing', widget: 'inline' }],
  ['blog-post_magnet_pricing', { kind: 'magnet', page: 'blog-post', magnet: 'pricing', widget: 'inline' }],
  ['gallery_magnet_lookbook', { kind: 'magnet', page: 'gallery', magnet: 'lookbook', widget: 'inline' }],
  // LP v2
  ['lp-motorized-blinds_hero', { kind: 'lp_v2', slug: 'motorized-blinds', placement: 'hero' }],
  ['lp-motorized-blinds_second-cta', { kind: 'lp_v2', slug: 'motorized-blinds', placement: 'second-cta' }],
  ['lp-shutters_bottom-bar', { kind: 'lp_v2', slug: 'shutters', placement: 'bottom-bar' }],
];

describe('parseFormSource', () => {
  it.each(cases)('parses %s', (value, expected) => {
    expect(parseFormSource(value)).toEqual({ raw: value, ...expected });
  });

  it.each([undefined, null, '', '   '])('treats %j as the lp_form_legacy default', (value) => {
    expect(parseFormSource(value)).toEqual({ kind: 'legacy_default', raw: 'lp_form_legacy', defaulted: true });
  });

  it('parses every listed magnet value as a magnet', () => {
    for (const v of KNOWN_MAGNET_VALUES) expect(parseFormSource(v).kind).toBe('magnet');
  });

  it('recognises every trigger suffix on a template value, with and without _force and _phone1', () => {
    for (const suffix of L2_TRIGGER_SUFFIXES) {
      for (const tail of ['', '_force', '_phone1', '_force_phone1']) {
        const fs = parseFormSource(`home_popup${suffix}${tail}`);
        expect(fs).toMatchObject({
          kind: 'popup',
          trigger: suffix.slice(1),
          forced: tail.includes('_force'),
          callback: tail.includes('_phone1'),
        });
      }
    }
  });

  it('keeps the received value as raw and ignores surrounding whitespace when parsing', () => {
    expect(parseFormSource(' gallery_inline ')).toEqual({
      kind: 'page_inline',
      raw: ' gallery_inline ',
      page: 'gallery',
    });
  });

  it.each([
    'something-else',
    'about_inline', // only gallery / faq (and a tenant site's home) have a bare inline value
    'product-_inline',
    'Product-Roller-Shades_inline', // values are lowercase
    'home_popup_hover', // not a trigger
    'home_popup_force_scroll', // _force comes after the trigger
    'home_popup_phone1_scroll',
    'about_magnet_pricing_popup_scroll', // magnet popups carry no trigger
    'home_magnet_swatch', // swatch exists only in the server enum
    'home_magnet_price_guide',
    'lp-_hero',
    'lp-foo_footer',
    'lp-foo_hero_phone1',
    'x_popup__scroll',
    '<script>alert(1)</script>',
    'lp_form_legacy_force',
  ])('records %j as unknown', (value) => {
    expect(parseFormSource(value)).toEqual({ kind: 'unknown', raw: value, reason: 'unrecognised' });
  });

  it('records a value over 200 characters as unknown without parsing it', () => {
    const long = `product-${'a'.repeat(200)}_inline`;
    expect(parseFormSource(long)).toEqual({ kind: 'unknown', raw: long, reason: 'too_long' });
    const edge = `product-${'a'.repeat(200 - 'product-_inline'.length)}_inline`;
    expect(edge).toHaveLength(200);
    expect(parseFormSource(edge).kind).toBe('product_inline');
  });

  it('never throws on odd input', () => {
    for (const v of [123, {}, [], true] as unknown[]) {
      expect(() => parseFormSource(v as string)).not.toThrow();
    }
  });
});

describe('isCallback', () => {
  it('is true for any value ending in _phone1, even unknown ones (the production rule)', () => {
    expect(isCallback(parseFormSource('home_popup_phone1'))).toBe(true);
    expect(isCallback(parseFormSource('lp-foo_hero_phone1'))).toBe(true);
    expect(isCallback(parseFormSource('home_popup_scroll'))).toBe(false);
    expect(isCallback(parseFormSource(undefined))).toBe(false);
  });
});

describe('captureLayer', () => {
  it.each([
    ['product-shutters_inline', 'L1'],
    ['local-austin-tx_inline', 'L1'],
    ['faq_inline', 'L1'],
    ['lp_form_legacy', 'L1'],
    ['home_popup_scroll', 'L2'],
    ['home_popup_force', 'L2'],
    ['home_popup_phone1', 'L3'],
    ['gallery_magnet_lookbook_popup', 'L4'],
    ['home_magnet_pricing', 'L4'],
    ['lp-x_hero', 'LP2'],
    ['nope', null],
  ])('%s is %s', (value, layer) => {
    expect(captureLayer(parseFormSource(value))).toBe(layer);
  });
});
