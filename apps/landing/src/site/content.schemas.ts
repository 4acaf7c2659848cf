/**
 * The shape of every content file. Field names here are what docs/site.md tells a marketer to
 * write; the loader turns a failed check into a message naming the file and the field.
 */
import { z } from 'zod';

export const slug = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lower-case letters, digits and single hyphens (like "roller-shades")');
const text = z.string().trim().min(1, 'must not be empty');
const texts = z.array(text);

/** `art` names one of the illustrations in public/img/, checked against the files at start-up. */
export const productSchema = (arts: readonly string[]) =>
  z.object({
    slug,
    name: text,
    short: text,
    intro: text,
    features: texts.min(1, 'must list at least one feature'),
    priceFrom: text,
    art: z.string().refine((a) => arts.includes(a), {
      message: `must be one of the illustrations in public/img/: ${arts.join(', ')}`,
    }),
  });
export const locationSchema = z.object({ slug, city: text, areas: texts, note: text });
export const lpV2Schema = z.object({ slug, title: text, lead: text, offer: text, points: texts, product: slug });
export const lpLegacySchema = z.object({ slug, title: text, lead: text });
export const landingPagesSchema = z.object({ v2: z.array(lpV2Schema), legacy: z.array(lpLegacySchema) });
export const siteSchema = z.object({
  tagline: text,
  phone: text,
  phoneHref: z.string().regex(/^\+?[0-9]+$/, 'must be the number for a tel: link, digits only (like "+13035550142")'),
  email: z.email('must be an email address'),
  address: text,
  hours: text,
  home: z.object({
    title: text,
    lead: text,
    cta: text,
    steps: z.array(z.object({ title: text, text })),
    promises: texts,
  }),
  about: z.object({ title: text, lead: text }),
  helpdesk: z.object({ title: text, lead: text, subjects: texts.min(1, 'must list at least one subject') }),
  gallery: z.object({
    title: text,
    lead: text,
    items: z.array(z.object({ title: text, product: slug, text })),
  }),
  faq: z.array(z.object({ q: text, a: text })),
});
export const popupPagesSchema = z.object({
  pages: z.array(
    z.object({
      path: z.string().startsWith('/', 'must start with /'),
      template: z.string().regex(/^[a-z0-9-]+_popup$/, 'must end in _popup (like "home_popup")'),
    }),
  ),
});
export const postMetaSchema = z.object({
  title: text,
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD'),
  summary: text,
});

export type Product = z.infer<ReturnType<typeof productSchema>>;
export type Location = z.infer<typeof locationSchema>;
export type LpV2 = z.infer<typeof lpV2Schema>;
export type LpLegacy = z.infer<typeof lpLegacySchema>;
export type SiteCopy = z.infer<typeof siteSchema>;
