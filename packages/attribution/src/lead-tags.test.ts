import { describe, expect, it } from 'vitest';

import { parseFormSource } from './form-source.parser.js';
import { leadTags, normaliseLpSlug } from './lead-tags.js';

const tags = (formSource: string | undefined, lpSlug?: string, siteName = 'Acme Blinds') =>
  leadTags({ formSource: parseFormSource(formSource), lpSlug, siteName });

describe('leadTags', () => {
  it.each<[string | undefined, string | undefined, string[]]>([
    // main-site leads
    ['product-roller-shades_inline', undefined, ['SITE: ACME BLINDS']],
    ['local-austin-tx_inline', undefined, ['SITE: ACME BLINDS']],
    ['gallery_inline', undefined, ['SITE: ACME BLINDS']],
    ['home_popup_scroll', undefined, ['SITE: ACME BLINDS']],
    ['home_magnet_pricing', undefined, ['SITE: ACME BLINDS']],
    [undefined, undefined, ['SITE: ACME BLINDS']],
    ['not-a-known-value', undefined, ['SITE: ACME BLINDS']],
    // landing pages
    ['lp-motorized-blinds_hero', undefined, ['LP: MOTORIZED-BLINDS']],
    ['lp-shutters_bottom-bar', 'shutters', ['LP: SHUTTERS']],
    ['lp-shutters_second-cta', 'other', ['LP: SHUTTERS']], // the authored form_source slug wins
    ['lp_form_legacy', 'spring-sale', ['LP: SPRING-SALE']],
    [undefined, '/spring-sale/', ['LP: SPRING-SALE']],
    // blog landing pages
    ['lp_form_legacy', 'blog/best-blinds', ['LP: BLOG/BEST-BLINDS']],
    ['lp_form_legacy', 'blog-best-blinds', ['LP: BLOG/BEST-BLINDS']],
    ['lp_form_legacy', 'blog', ['LP: BLOG']],
    ['lp_form_legacy', 'bloggers-guide', ['LP: BLOGGERS-GUIDE']],
    // phone callback
    ['home_popup_phone1', undefined, ['SITE: ACME BLINDS', 'PHONE CALLBACK']],
    ['home_popup_exit_force_phone1', 'summer', ['LP: SUMMER', 'PHONE CALLBACK']],
    ['weird_thing_phone1', undefined, ['SITE: ACME BLINDS', 'PHONE CALLBACK']],
  ])('form_source %j, lp_slug %j → %j', (fs, slug, expected) => {
    expect(tags(fs, slug)).toEqual(expected);
  });

  it('ignores an lp_slug that is empty, too long or carries odd characters', () => {
    expect(tags('gallery_inline', '  ')).toEqual(['SITE: ACME BLINDS']);
    expect(tags('gallery_inline', 'a'.repeat(101))).toEqual(['SITE: ACME BLINDS']);
    expect(tags('gallery_inline', 'x, SITE: EVIL')).toEqual(['SITE: ACME BLINDS']);
  });

  it('normalises the site name to one upper-case line and skips it when blank', () => {
    expect(tags('faq_inline', undefined, '  acme   blinds ')).toEqual(['SITE: ACME BLINDS']);
    expect(tags('faq_inline', undefined, '')).toEqual([]);
    expect(tags('home_popup_phone1', undefined, ' ')).toEqual(['PHONE CALLBACK']);
  });

  it('is deterministic and has no duplicates', () => {
    const a = tags('home_popup_phone1', 'blog/x');
    expect(a).toEqual(tags('home_popup_phone1', 'blog/x'));
    expect(new Set(a).size).toBe(a.length);
  });
});

describe('normaliseLpSlug', () => {
  it('trims and drops surrounding slashes', () => {
    expect(normaliseLpSlug(' /blog/abc/ ')).toBe('blog/abc');
    expect(normaliseLpSlug(null)).toBeNull();
    expect(normaliseLpSlug('a b')).toBeNull();
  });
});
