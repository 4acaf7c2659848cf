/**
 * Request bodies of the public forms. Unknown fields are dropped (the legacy site sends extras);
 * every rule that fails is reported with the field and rule name (docs/public-api.md).
 */
import { isValidPhoneNumber } from 'libphonenumber-js';
import { z } from 'zod';

const text = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);
const optionalText = (max: number) =>
  text(max)
    .optional()
    .transform((v) => (v === undefined || v === '' ? undefined : v));

// A number that can be dialled. North American numbers (no +, or +1) follow the NANP plan: area
// code and exchange start with 2-9 and are not N11; that regex costs well under a microsecond, while
// libphonenumber (~30-50 µs a call) checks only the other countries' numbers, written with +.
export const PHONE_DEFAULT_REGION = 'US';
const NANP = /^1?[2-9](?!11)\d{2}[2-9](?!11)\d{6}$/;
function isPhoneNumber(v: string): boolean {
  if (!/^\+?[0-9 ().-]+$/.test(v)) return false;
  const digits = v.replace(/\D/g, '');
  if (!v.startsWith('+') || digits.startsWith('1')) return NANP.test(digits);
  return isValidPhoneNumber(v, PHONE_DEFAULT_REGION);
}
const phone = optionalText(30).refine((v) => v === undefined || isPhoneNumber(v), {
  message:
    'must be a phone number with its area code (digits, spaces, + ( ) - .); outside North America start with + and the country code',
  params: { rule: 'format' },
});
// A US ZIP code (12345 or 12345-6789) or a Canadian postal code (A1A 1A1): "abc" is not a place.
const POSTAL_CODE = /^(?:\d{5}(?:-\d{4})?|[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d)$/i;
// One schema for every call: building z.email() inside the refinement cost ~10 µs per request.
const emailFormat = z.email();
const email = optionalText(254).refine((v) => v === undefined || emailFormat.safeParse(v).success, {
  message: 'must be an email address',
  params: { rule: 'format' },
});
const attribution = {
  gclid: optionalText(200),
  gbraid: optionalText(200),
  wbraid: optionalText(200),
  fbclid: optionalText(200),
  utm_source: optionalText(200),
  utm_medium: optionalText(200),
  utm_campaign: optionalText(200),
  utm_term: optionalText(200),
  utm_content: optionalText(200),
  lp_slug: optionalText(200),
};
const captchaToken = z.string().max(4096, 'must be at most 4096 characters').optional();

export const estimateSchema = z
  .object({
    name: text(100).min(1, 'is required'),
    phone,
    email,
    zip: optionalText(10).refine((v) => v === undefined || POSTAL_CODE.test(v), {
      message: 'must be a US ZIP code (12345 or 12345-6789) or a Canadian postal code (A1A 1A1)',
      params: { rule: 'format' },
    }),
    products: z
      .array(z.string().regex(/^[a-z0-9][a-z0-9-]{0,59}$/, 'must be a product slug'))
      .max(20, 'must list at most 20 products')
      .optional()
      .default([]),
    message: optionalText(2000),
    form_source: z.string().max(200, 'must be at most 200 characters').optional(),
    ...attribution,
    captcha_token: captchaToken,
  })
  .superRefine((v, ctx) => {
    if (!v.phone && !v.email) {
      for (const path of ['phone', 'email'])
        ctx.addIssue({
          code: 'custom',
          path: [path],
          message: 'give a phone number or an email address',
          params: { rule: 'required_one_of' },
        });
    }
  });

export const helpdeskSchema = z.object({
  name: text(100).min(1, 'is required'),
  email: text(254).pipe(z.email('must be an email address')),
  phone,
  subject: text(150).min(1, 'is required'),
  message: text(5000).min(1, 'is required'),
  captcha_token: captchaToken,
});

export type EstimateInput = z.infer<typeof estimateSchema>;
export type HelpdeskInput = z.infer<typeof helpdeskSchema>;
