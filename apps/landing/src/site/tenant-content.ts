/**
 * A tenant's snapshot as the shared views read it: the same `SiteContent` and `Shell` the platform's
 * own site is rendered from (so layout, forms, the popup and the answer pages are one code path),
 * plus the brand (colours checked for contrast, logo, favicon, pixel, social links).
 */
import { contrast, MIN_CONTRAST, servesAsBackground } from '@platform/contracts/branding.js';
import type { WebsiteSnapshot } from '@platform/contracts/website.js';

import type { SiteContent } from './content.loader.js';
import { html } from './html.js';
import type { Brand } from './layout.view.js';

/** The stylesheet's own colours (public/site.css), used where a tenant's colour would not read. */
export const DEFAULT_BRAND = '#0b5d63';
export const DEFAULT_ALT = '#f3f1ec';
const HEX = /^#[0-9a-f]{6}$/i;

/** Page slug of a price-grid product code (`/products/{slug}`, `product-{slug}_inline`). */
export const productSlug = (code: string): string =>
  code
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'product';

/** The illustration of public/img/ closest to a product's name (tenants have no uploaded product images yet). */
export function productArt(name: string): string {
  const n = name.toLowerCase();
  const by: [RegExp, string][] = [
    [/motor/, 'motor'],
    [/shutter/, 'shutter'],
    [/cellular|honeycomb/, 'cellular'],
    [/roman/, 'roman'],
    [/blind/, 'blinds'],
  ];
  return by.find(([re]) => re.test(n))?.[1] ?? 'roller';
}

/** "from $1,250" from minor units and an ISO currency, or null when the tenant hides prices. */
export function priceFrom(minor: number | null, currency: string): string | null {
  if (minor === null) return null;
  const digits =
    new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  const amount = minor / 10 ** digits;
  const whole = Number.isInteger(amount);
  const f = new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency,
    minimumFractionDigits: whole ? 0 : digits,
    maximumFractionDigits: whole ? 0 : digits,
  });
  return `from ${f.format(amount)}`;
}

/** Colours: white button text must read on the primary (4.5:1), the dark page text on the secondary background. */
export function themeCss(primary: string | null, secondary: string | null): string {
  const brand = primary && HEX.test(primary) && contrast(primary, '#ffffff') >= MIN_CONTRAST ? primary : DEFAULT_BRAND;
  const alt = secondary && HEX.test(secondary) && servesAsBackground(secondary) ? secondary : DEFAULT_ALT;
  return `:root{--brand:${brand};--brand-dark:color-mix(in srgb,${brand} 78%,#000);--alt:${alt}}`;
}

const safeUrl = (u: string | null): string | null => (u && /^(https:\/\/|\/(?!\/))/i.test(u) ? u : null);

export function tenantBrand(s: WebsiteSnapshot): Brand {
  const c = s.company;
  const nav: Brand['nav'] = [
    ['/', 'Home'],
    ...(s.catalog.products.length ? [['/#products', 'Products'] as [string, string]] : []),
    ['/gallery', 'Gallery'],
    ['/faq', 'FAQ'],
    ['/about', 'About'],
    ...(c.helpdesk_enabled ? [['/helpdesk', 'Help'] as [string, string]] : []),
  ];
  const social = [
    { label: 'Facebook', href: safeUrl(c.social_facebook) },
    { label: 'Instagram', href: safeUrl(c.social_instagram) },
  ].filter((l): l is { label: string; href: string } => l.href !== null);
  return {
    nav,
    logoUrl: safeUrl(c.logo_url),
    faviconUrl: safeUrl(c.favicon_url),
    themeCss: themeCss(c.primary_color, c.secondary_color),
    pixelId: s.meta_pixel_id && /^\d{5,20}$/.test(s.meta_pixel_id) ? s.meta_pixel_id : null,
    social,
    legal: 'All rights reserved.',
  };
}

/** Plain text with blank-line paragraphs; the `html` tag escapes each one. */
export const paragraphs = (text: string): string[] =>
  text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);

/** The snapshot as the shared views' content. Popup templates follow the platform's: `<page>_popup`. */
export function tenantContent(s: WebsiteSnapshot): SiteContent {
  const w = s.content;
  const c = s.company;
  const shown = (code: string): boolean => !w.products_shown.length || w.products_shown.includes(code);
  const products = s.catalog.products.filter((p) => shown(p.code));
  const popupPages = new Map<string, string>([
    ['/', 'home_popup'],
    ['/about', 'about_popup'],
    ['/gallery', 'gallery_popup'],
    ['/faq', 'faq_popup'],
    ...products.map((p): [string, string] => [
      `/products/${productSlug(p.code)}`,
      `product-${productSlug(p.code)}_popup`,
    ]),
    ...s.catalog.areas.map((a): [string, string] => [`/areas/${a.slug}`, `local-${a.slug}_popup`]),
  ]);
  return {
    site: {
      tagline: w.tagline,
      phone: c.phone ?? '',
      phoneHref: (c.phone ?? '').replace(/[^+0-9]/g, ''),
      email: c.email ?? '',
      address: c.address ?? '',
      hours: w.hours,
      home: { title: w.hero.title, lead: w.hero.lead, cta: w.hero.cta, steps: [], promises: [] },
      about: { title: w.about.title, lead: w.tagline },
      helpdesk: {
        title: 'Help and service',
        lead: `Already a customer? Tell ${c.name} what is going on with your window coverings and the team will reply.`,
        subjects: ['Repair or adjustment', 'Warranty claim', 'Order status', 'Something else'],
      },
      gallery: { title: 'Our work', lead: `Windows ${c.name} has dressed recently.`, items: [] },
      faq: w.faq,
    },
    products: products.map((p) => ({
      slug: productSlug(p.code),
      name: p.name,
      short: `Custom ${p.name.toLowerCase()}, measured and installed by ${c.name}.`,
      intro: `${p.name} made to measure for each of your windows.`,
      features: [],
      priceFrom: (w.show_prices && priceFrom(p.from_minor, p.currency)) || '',
      art: productArt(p.name),
    })),
    locations: s.catalog.areas.map((a) => ({ slug: a.slug, city: a.name, areas: a.zip_codes, note: a.address ?? '' })),
    lpV2: [],
    lpLegacy: [],
    posts: [],
    aboutHtml: paragraphs(w.about.body)
      .map((p) => html`<p>${p}</p>`.value)
      .join(''),
    popupPages,
    helpdeskEnabled: c.helpdesk_enabled,
  };
}
