/**
 * Every `form_source` value the site authors, derived from the content data. The views take their
 * values from here, and form-sources.test.ts checks each one against the backend's parser.
 */
import {
  FORCE_SUFFIX,
  L2_TRIGGER_SUFFIXES,
  LEGACY_DEFAULT,
  LP_PLACEMENTS,
  type LpPlacement,
} from '@platform/attribution';

import type { SiteContent } from './content.loader.js';

export const formSource = {
  productInline: (product: string): string => `product-${product}_inline`,
  localInline: (fullSlug: string): string => `local-${fullSlug}_inline`,
  galleryInline: 'gallery_inline',
  faqInline: 'faq_inline',
  /** Only tenant sites have an inline form on the home page (the platform's home is popup only). */
  homeInline: 'home_inline',
  lp: (slug: string, placement: LpPlacement): string => `lp-${slug}_${placement}`,
} as const;

export interface AuthoredValue {
  value: string;
  /** Page path the form lives on. */
  path: string;
  capture: 'inline' | 'l2-popup' | 'lp-v2' | 'legacy-default';
}

/** The values written into the pages (popup values are the templates, before any suffix). */
export function authoredFormSources(c: SiteContent): AuthoredValue[] {
  const out: AuthoredValue[] = [];
  for (const p of c.products)
    out.push({ value: formSource.productInline(p.slug), path: `/products/${p.slug}`, capture: 'inline' });
  for (const l of c.locations)
    out.push({ value: formSource.localInline(l.slug), path: `/areas/${l.slug}`, capture: 'inline' });
  out.push({ value: formSource.galleryInline, path: '/gallery', capture: 'inline' });
  out.push({ value: formSource.faqInline, path: '/faq', capture: 'inline' });
  for (const [path, template] of c.popupPages) out.push({ value: template, path, capture: 'l2-popup' });
  for (const lp of c.lpV2) {
    for (const pl of LP_PLACEMENTS)
      out.push({ value: formSource.lp(lp.slug, pl), path: `/lp/${lp.slug}`, capture: 'lp-v2' });
  }
  // The legacy pages post no form_source; the backend records its default.
  for (const lp of c.lpLegacy) out.push({ value: LEGACY_DEFAULT, path: `/go/${lp.slug}`, capture: 'legacy-default' });
  return out;
}

/** Every string the browser can send: the authored values plus each popup template with the suffixes src/client/popup.ts appends. */
export function runtimeFormSources(c: SiteContent): string[] {
  const set = new Set(authoredFormSources(c).map((a) => a.value));
  for (const template of c.popupPages.values()) {
    for (const s of [...L2_TRIGGER_SUFFIXES, FORCE_SUFFIX]) set.add(template + s);
  }
  return [...set];
}
