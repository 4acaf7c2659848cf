/** The attribution half of the bench's estimate form (a paid click on a landing page), shared by bench:intake and micro.ts. */
export const BENCH_ATTRIBUTION = {
  form_source: 'roller-shades_popup_scroll',
  gclid: 'Cj0KCQiA4NWrBhD-ARIsAFCKwWsQ3bench0x7fK2lN1pQ9rT5uV8wY1zA3bC6dE9fH2jK4mN7pQ0sT3',
  utm_source: 'google',
  utm_medium: 'cpc',
  utm_campaign: 'spring-sale-2026',
  utm_term: 'custom window blinds denver',
  utm_content: 'hero-variant-b',
  lp_slug: 'spring-sale',
};
