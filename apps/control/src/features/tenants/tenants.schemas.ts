/** Request bodies of the tenants API and CLI (one schema each, so both refuse the same input). */
import { contrastWithWhite, MIN_CONTRAST, readsOnWhite } from '@platform/contracts/branding.js';
import { z } from 'zod';

export const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])?$/;

export const outsideErpSchema = z.strictObject({
  url: z.url({ protocol: /^https?$/, error: 'must be the http(s) URL of an Odoo 15 server' }).max(255),
  db: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/, 'must be an ERP database name'),
  login: z.string().min(1, 'is required').max(100, 'must be at most 100 characters'),
  api_key: z.string().min(8, "must be the service account's API key").max(200),
});

export const createTenantSchema = z.strictObject({
  slug: z.string().regex(SLUG, 'must be 1-48 lower-case letters, digits and inner hyphens (it names the ERP database)'),
  name: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  plan: z.enum(['free', 'starter', 'professional', 'enterprise'], 'must be free, starter, professional or enterprise'),
  owner_email: z.email('must be an email address').max(254),
  owner_password: z.string().min(1, 'is required').max(1024, 'must be at most 1024 characters'),
  erp: outsideErpSchema.optional(),
});

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`).nullable().optional();
const url = (max: number) =>
  z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .max(max, `must be at most ${max} characters`)
    .nullable()
    .optional();
const hex = z
  .string()
  .regex(/^#[0-9A-Fa-f]{6}$/, 'must be a hex colour such as #1A2B3C')
  .nullable()
  .optional();

// Asked of Intl (the ICU data Node ships), not a hand-kept list: what it formats is what we accept.
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));
export const isTimeZone = (tz: string) => {
  try {
    return Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone.length > 0;
  } catch {
    return false;
  }
};

/** White text sits on the primary colour (buttons, the header): it must read at WCAG AA. */
const primary = z
  .string()
  .regex(/^#[0-9A-Fa-f]{6}$/, 'must be a hex colour such as #1A2B3C')
  .refine(readsOnWhite, {
    error: (i) =>
      `white text on it has contrast ${contrastWithWhite(String(i.input))}:1; it needs at least ${MIN_CONTRAST}:1 (choose a darker colour)`,
  })
  .nullable()
  .optional();

/** PUT sets the fields it names (null clears one); the others keep their value. */
export const settingsSchema = z.strictObject({
  company_name: text(100),
  logo_url: url(255),
  favicon_url: url(255),
  primary_color: primary,
  secondary_color: hex,
  phone: text(20),
  email: z.email('must be an email address').max(100, 'must be at most 100 characters').nullable().optional(),
  address: text(1000),
  social_facebook: url(255),
  social_instagram: url(255),
  meta_title: text(100),
  meta_description: text(255),
  time_zone: z
    .string()
    .max(64, 'must be at most 64 characters')
    .refine(isTimeZone, 'must be an IANA time zone such as America/Denver')
    .optional(),
  currency: z
    .string()
    .refine((c) => CURRENCIES.has(c), 'must be an ISO 4217 currency code such as USD')
    .optional(),
  helpdesk_enabled: z.boolean('must be true or false').optional(),
  portal_enabled: z.boolean('must be true or false').optional(),
});
