/**
 * What PUT …/website/draft accepts (docs/website.md): the whole `WebsiteContent`, within
 * WEBSITE_LIMITS. Text is plain: a control character (NUL included) is refused with the field named,
 * never stripped, so what the owner sees saved is exactly what they typed. Only long text may hold
 * line breaks (a blank line starts a paragraph); nothing is trimmed either.
 */
import { WEBSITE_LIMITS } from '@platform/contracts/website.js';
import { z } from 'zod';

/** C0 controls (but tab and line feed where `lines` allows them), DEL, C1 controls, U+2028/2029. */
function hasControl(s: string, lines: boolean): boolean {
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (lines && (c === 0x09 || c === 0x0a)) continue;
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x2028 || c === 0x2029) return true;
  }
  return false;
}

const text = (max: number, lines: boolean, what: string) =>
  z
    .string({ error: 'must be text' })
    .max(max, `must be at most ${max} characters`)
    .refine((s) => !hasControl(s, lines), `must be plain text: ${what}`);

export const shortText = () => text(WEBSITE_LIMITS.shortText, false, 'one line, no control characters');
export const longText = () => text(WEBSITE_LIMITS.longText, true, 'no control characters');
const required = <T extends z.ZodType<string>>(s: T) => s.refine((v) => v.trim().length > 0, 'is required');

export const IMAGE_KEY = /^[0-9a-f-]{36}\/website\/[0-9a-f]{32}\.webp$/;

export const websiteContentSchema = z.strictObject({
  hero: z.strictObject({ title: required(shortText()), lead: longText(), cta: required(shortText()) }),
  tagline: shortText(),
  hours: shortText(),
  about: z.strictObject({ title: required(shortText()), body: longText() }),
  faq: z
    .array(z.strictObject({ q: required(shortText()), a: required(longText()) }))
    .max(WEBSITE_LIMITS.faqEntries, `must have at most ${WEBSITE_LIMITS.faqEntries} entries`),
  gallery: z
    .array(
      z.strictObject({
        image_key: z.string().regex(IMAGE_KEY, 'must be the image_key an upload answered'),
        width: z.number().int().min(1).max(10_000),
        height: z.number().int().min(1).max(10_000),
        alt: required(shortText()),
        caption: shortText(),
      }),
    )
    .max(WEBSITE_LIMITS.galleryItems, `must have at most ${WEBSITE_LIMITS.galleryItems} images`),
  products_shown: z
    .array(z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'must be product codes'))
    .max(200)
    .transform((v) => [...new Set(v)]),
  show_prices: z.boolean('must be true or false'),
  areas_shown: z
    .array(z.uuid({ error: 'must be branch ids' }))
    .max(200)
    .transform((v) => [...new Set(v)]),
});

export const rollbackSchema = z.strictObject({
  version: z
    .number({ error: 'must be a version number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(1_000_000, 'must be a published version'),
});

export const trackingSchema = z.strictObject({
  meta_pixel_id: z
    .string()
    .regex(/^[0-9]{5,20}$/, 'must be the digits of a Meta pixel id')
    .nullable(),
  // Absent keeps the stored token, null removes it.
  meta_capi_token: z
    .string()
    .min(20, 'must be a Conversions API access token')
    .max(1000, 'must be at most 1000 characters')
    .regex(/^[A-Za-z0-9_\-.]+$/, 'must be a Conversions API access token (letters and digits)')
    .nullable()
    .optional(),
});
