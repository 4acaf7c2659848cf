/**
 * Lead tags: the only attribution production keeps. Exactly one origin tag (`SITE: ...` or
 * `LP: ...`), then `PHONE CALLBACK` when the value ends in `_phone1`. Rules: docs/form-source.md.
 */
import { type FormSource, isCallback } from './form-source.parser.js';

export const PHONE_CALLBACK_TAG = 'PHONE CALLBACK';
export const MAX_LP_SLUG_LENGTH = 100;

export interface LeadTagsInput {
  formSource: FormSource;
  /** The `lp_slug` hidden field, when the page filled it. */
  lpSlug?: string | null;
  /** Name of the main site the lead came from, e.g. `acme blinds` → `SITE: ACME BLINDS`. */
  siteName: string;
}

const LP_SLUG = /^[a-z0-9]+(?:[-_/.][a-z0-9]+)*$/i;

/**
 * Normalises an `lp_slug`: trimmed, surrounding slashes dropped. Returns null when empty, too
 * long or made of other characters than letters, digits and `- _ / .` (a client-filled field is
 * never trusted into a tag verbatim).
 */
export function normaliseLpSlug(slug: string | null | undefined): string | null {
  if (typeof slug !== 'string') return null;
  const s = slug.trim().replace(/^\/+|\/+$/g, '');
  if (s === '' || s.length > MAX_LP_SLUG_LENGTH || !LP_SLUG.test(s)) return null;
  return s;
}

/** `LP: <SLUG>`; blog slugs (`blog/x` or `blog-x`) become `LP: BLOG/X`. */
export function lpTag(slug: string): string {
  const upper = slug.toUpperCase();
  const blog = /^BLOG[/-](.+)$/.exec(upper);
  return blog ? `LP: BLOG/${blog[1]}` : `LP: ${upper}`;
}

export function siteTag(siteName: string): string | null {
  const name = siteName.trim().replace(/\s+/g, ' ');
  return name === '' ? null : `SITE: ${name.toUpperCase()}`;
}

export function leadTags(input: LeadTagsInput): string[] {
  const tags: string[] = [];
  const fs = input.formSource;
  // The LP v2 slug in form_source is authored; lp_slug is filled by a client script. So the
  // form_source slug wins, and lp_slug marks every other landing-page lead (LP v1, blog LPs).
  const slug = fs.kind === 'lp_v2' ? fs.slug : normaliseLpSlug(input.lpSlug);
  const origin = slug !== null ? lpTag(slug) : siteTag(input.siteName);
  if (origin !== null) tags.push(origin);
  if (isCallback(fs)) tags.push(PHONE_CALLBACK_TAG);
  return [...new Set(tags)];
}
