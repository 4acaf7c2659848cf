/** Tenant website snapshots for tests, the browser suite and the bench: two distinct companies. */
import type { WebsiteSnapshot } from '@platform/contracts/website.js';
import { defaultWebsiteSnapshot } from '@platform/website';

type Patch = {
  [K in keyof WebsiteSnapshot]?: WebsiteSnapshot[K] extends object ? Partial<WebsiteSnapshot[K]> : WebsiteSnapshot[K];
};

export function tenantSnapshot(
  base: { tenantId: string; name: string; primaryHost: string },
  patch: Patch = {},
): WebsiteSnapshot {
  const d = defaultWebsiteSnapshot(base);
  return {
    ...d,
    ...(patch as Partial<WebsiteSnapshot>),
    content: { ...d.content, ...patch.content },
    catalog: { ...d.catalog, ...patch.catalog },
    company: { ...d.company, ...patch.company },
  };
}

/** A complete company: products with prices, two areas, helpdesk, colours, a pixel, social links, a gallery photo. */
export function alphaSnapshot(tenantId: string, primaryHost = 'alpha.tenants.test'): WebsiteSnapshot {
  return tenantSnapshot(
    { tenantId, name: 'Alpha Shades', primaryHost },
    {
      version: 3,
      content: {
        hero: {
          title: 'Shades for mountain light',
          lead: 'Alpha Shades fits every window in Boulder County.',
          cta: 'Book an Alpha visit',
        },
        tagline: 'Window shades from Boulder',
        hours: 'Mon–Fri 8am–6pm',
        about: {
          title: 'About Alpha Shades',
          body: 'Family run since 1998.\n\nWe install <b>every</b> shade ourselves.',
        },
        faq: [
          { q: 'Do you measure?', a: 'Always, twice.' },
          { q: 'Do you motorize?', a: 'Yes, with Somfy motors.' },
        ],
        gallery: [
          {
            image_key: 'alpha/gallery/kitchen one.webp',
            width: 800,
            height: 600,
            alt: 'Kitchen with roller shades',
            caption: 'A kitchen in Louisville',
          },
        ],
      },
      catalog: {
        products: [
          { code: 'ROLLER-SHADES', name: 'Roller shades', from_minor: 12500, currency: 'USD' },
          { code: 'shutters', name: 'Plantation shutters', from_minor: 39999, currency: 'USD' },
        ],
        areas: [
          {
            slug: 'boulder',
            name: 'Boulder',
            zip_codes: ['80301', '80302'],
            phone: '(303) 555-0101',
            address: '1 Pearl St, Boulder',
          },
          { slug: 'louisville', name: 'Louisville', zip_codes: ['80027'], phone: null, address: null },
        ],
      },
      company: {
        phone: '(303) 555-0100',
        email: 'hello@alpha-shades.example',
        address: '1 Pearl St, Boulder, CO',
        primary_color: '#6a1b9a',
        secondary_color: '#f5f0fa',
        social_facebook: 'https://facebook.com/alphashades',
        social_instagram: 'https://instagram.com/alphashades',
        meta_title: 'Alpha Shades | Boulder window shades',
        meta_description: 'Custom shades measured and installed across Boulder County.',
        helpdesk_enabled: true,
      },
      meta_pixel_id: '111222333444',
    },
  );
}

/** A second company with different everything, no pixel, no helpdesk, prices hidden. */
export function betaSnapshot(tenantId: string, primaryHost = 'www.beta-blinds.example'): WebsiteSnapshot {
  return tenantSnapshot(
    { tenantId, name: 'Beta Blinds', primaryHost },
    {
      version: 1,
      content: {
        hero: { title: 'Blinds by Beta', lead: 'Beta Blinds covers Denver.', cta: 'Get a Beta quote' },
        tagline: 'Blinds for Denver',
      },
      catalog: {
        products: [{ code: 'wood-blinds', name: 'Wood blinds', from_minor: null, currency: 'USD' }],
        areas: [{ slug: 'denver', name: 'Denver', zip_codes: ['80202'], phone: null, address: null }],
      },
      company: {
        phone: '(720) 555-0199',
        email: 'info@beta-blinds.example',
        primary_color: '#1b5e20',
        helpdesk_enabled: false,
      },
    },
  );
}

/**
 * The tenant the popup suites run on: the platform site's product and area slugs (so each rule is
 * asserted on the same paths and values on both hosts) and an about text long enough that its
 * article footer starts below the fold, as a blog post's does.
 */
export function popupTenantSnapshot(tenantId: string, primaryHost = 'gamma.tenants.test'): WebsiteSnapshot {
  const para =
    'We measure every window twice, order each covering to the millimetre and install it ourselves, so the ' +
    'shade you chose in your living room is the shade that hangs there, square and quiet, for years.';
  return tenantSnapshot(
    { tenantId, name: 'Gamma Window Co', primaryHost },
    {
      version: 2,
      content: {
        tagline: 'Window coverings for the Front Range',
        about: { title: 'About Gamma Window Co', body: Array.from({ length: 8 }, () => para).join('\n\n') },
      },
      catalog: {
        products: ['Roller shades', 'Cellular shades', 'Wood blinds', 'Roman shades'].map((name, i) => ({
          code: name.toUpperCase().replace(' ', '-'),
          name,
          from_minor: 9900 + i * 2000,
          currency: 'USD',
        })),
        areas: ['Denver', 'Aurora', 'Lakewood'].map((name) => ({
          slug: `${name.toLowerCase()}-co`,
          name,
          zip_codes: ['80202'],
          phone: null,
          address: null,
        })),
      },
      company: { phone: '(303) 555-0177', email: 'hello@gamma-windows.example', helpdesk_enabled: true },
    },
  );
}
