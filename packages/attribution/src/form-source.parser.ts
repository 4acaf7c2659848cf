/**
 * One parser for every `form_source` shape the public forms send (old and new site). It never
 * throws: a value it cannot place becomes `{ kind: 'unknown' }` so the lead is still recorded.
 * Grammar, examples and the decisions taken where the spec is silent: docs/form-source.md.
 */

import {
  CALLBACK_SUFFIX,
  FORCE_SUFFIX,
  LEGACY_DEFAULT,
  LP_PLACEMENTS,
  type LpPlacement,
  POPUP_TRIGGERS,
  type PopupTrigger,
} from './form-source.vocabulary.js';

export {
  CALLBACK_SUFFIX,
  FORCE_SUFFIX,
  L2_TRIGGER_SUFFIXES,
  LEGACY_DEFAULT,
  LP_PLACEMENTS,
  type LpPlacement,
  popupSuffix,
  POPUP_TRIGGERS,
  type PopupOpener,
  type PopupTrigger,
} from './form-source.vocabulary.js';

/** Longer values are recorded as unknown rather than parsed. */
export const MAX_FORM_SOURCE_LENGTH = 200;

/** `form_source` names the magnet `pricing`; the server enum says `price_guide`. No mapping is defined. */
export type MagnetName = 'pricing' | 'lookbook';
export type MagnetWidget = 'popup' | 'inline';

/** The L4 popup and inline magnet values the legacy site sends (spec, "`form_source` values"). */
export const KNOWN_MAGNET_VALUES = [
  'about_magnet_pricing_popup',
  'blog-index_magnet_pricing_popup',
  'blog-post_magnet_pricing_popup',
  'gallery_magnet_lookbook_popup',
  'home_magnet_pricing',
  'about_magnet_pricing',
  'blog-index_magnet_pricing',
  'blog-post_magnet_pricing',
  'gallery_magnet_lookbook',
] as const;

/** Capture layer: L1 inline forms, L2 popup, L3 phone fallback, L4 magnet, LP v2 page forms. */
export type CaptureLayer = 'L1' | 'L2' | 'L3' | 'L4' | 'LP2';

export type FormSource =
  | { kind: 'product_inline'; raw: string; product: string }
  | { kind: 'local_inline'; raw: string; fullSlug: string }
  | { kind: 'page_inline'; raw: string; page: 'gallery' | 'faq' | 'home' }
  /** `defaulted` is true when the value was absent or empty. */
  | { kind: 'legacy_default'; raw: string; defaulted: boolean }
  | {
      kind: 'popup';
      raw: string;
      /** The per-page template value, `<page>_popup`. */
      template: string;
      page: string;
      trigger: PopupTrigger | null;
      forced: boolean;
      /** True for the L3 phone fallback (`_phone1`). */
      callback: boolean;
    }
  | { kind: 'magnet'; raw: string; page: string; magnet: MagnetName; widget: MagnetWidget }
  | { kind: 'lp_v2'; raw: string; slug: string; placement: LpPlacement }
  | { kind: 'unknown'; raw: string; reason: 'too_long' | 'unrecognised' };

export type FormSourceKind = FormSource['kind'];

// A slug is lowercase words joined by `-`; `/` is allowed for nested slugs. `_` is the separator
// between parts of a value, so it never appears inside a slug.
const SLUG = '[a-z0-9]+(?:[-/][a-z0-9]+)*';
const PRODUCT_INLINE = new RegExp(`^product-(${SLUG})_inline$`);
const LOCAL_INLINE = new RegExp(`^local-(${SLUG})_inline$`);
// `home_inline`: the inline form on a tenant site's home page (docs/website.md).
const PAGE_INLINE = /^(gallery|faq|home)_inline$/;
const LP_V2 = new RegExp(`^lp-(${SLUG})_(${LP_PLACEMENTS.join('|')})$`);
const MAGNET = new RegExp(`^(${SLUG})_magnet_(pricing|lookbook)(_popup)?$`);
const POPUP = new RegExp(
  `^((${SLUG})_popup)(?:_(${POPUP_TRIGGERS.join('|')}))?(${FORCE_SUFFIX})?(${CALLBACK_SUFFIX})?$`,
);

export function parseFormSource(value: string | undefined | null): FormSource {
  if (value === undefined || value === null || typeof value !== 'string' || value.trim() === '') {
    return { kind: 'legacy_default', raw: LEGACY_DEFAULT, defaulted: true };
  }
  const raw = value;
  if (raw.length > MAX_FORM_SOURCE_LENGTH) return { kind: 'unknown', raw, reason: 'too_long' };
  const v = raw.trim();

  if (v === LEGACY_DEFAULT) return { kind: 'legacy_default', raw, defaulted: false };

  let m = PRODUCT_INLINE.exec(v);
  if (m) return { kind: 'product_inline', raw, product: m[1]! };
  m = LOCAL_INLINE.exec(v);
  if (m) return { kind: 'local_inline', raw, fullSlug: m[1]! };
  m = PAGE_INLINE.exec(v);
  if (m) return { kind: 'page_inline', raw, page: m[1] as 'gallery' | 'faq' | 'home' };
  m = LP_V2.exec(v);
  if (m) return { kind: 'lp_v2', raw, slug: m[1]!, placement: m[2] as LpPlacement };
  m = MAGNET.exec(v);
  if (m) {
    return {
      kind: 'magnet',
      raw,
      page: m[1]!,
      magnet: m[2] as MagnetName,
      widget: m[3] ? 'popup' : 'inline',
    };
  }
  m = POPUP.exec(v);
  if (m) {
    return {
      kind: 'popup',
      raw,
      template: m[1]!,
      page: m[2]!,
      trigger: (m[3] as PopupTrigger | undefined) ?? null,
      forced: m[4] !== undefined,
      callback: m[5] !== undefined,
    };
  }
  return { kind: 'unknown', raw, reason: 'unrecognised' };
}

/**
 * The production rule: a value ending in `_phone1` marks a callback, whatever else it is
 * (so an unrecognised value ending in `_phone1` still counts).
 */
export function isCallback(fs: FormSource): boolean {
  return fs.raw.trim().endsWith(CALLBACK_SUFFIX);
}

export const isUnknown = (fs: FormSource): fs is Extract<FormSource, { kind: 'unknown' }> => fs.kind === 'unknown';
export const isPopup = (fs: FormSource): fs is Extract<FormSource, { kind: 'popup' }> => fs.kind === 'popup';
export const isMagnet = (fs: FormSource): fs is Extract<FormSource, { kind: 'magnet' }> => fs.kind === 'magnet';
export const isLpV2 = (fs: FormSource): fs is Extract<FormSource, { kind: 'lp_v2' }> => fs.kind === 'lp_v2';
export const isInline = (fs: FormSource): boolean =>
  fs.kind === 'product_inline' ||
  fs.kind === 'local_inline' ||
  fs.kind === 'page_inline' ||
  fs.kind === 'legacy_default';

/** The capture layer of a parsed value, or null when unknown. */
export function captureLayer(fs: FormSource): CaptureLayer | null {
  switch (fs.kind) {
    case 'product_inline':
    case 'local_inline':
    case 'page_inline':
    case 'legacy_default':
      return 'L1';
    case 'popup':
      return fs.callback ? 'L3' : 'L2';
    case 'magnet':
      return 'L4';
    case 'lp_v2':
      return 'LP2';
    case 'unknown':
      return null;
  }
}

/** The value the form posts (the default when absent); what to record as `x_form_source`. */
export const formSourceValue = (fs: FormSource): string => fs.raw;
