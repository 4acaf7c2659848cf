/**
 * What a tenant's site says before its owner edits anything: sensible copy for a window-covering
 * company under the tenant's own name, so a new site is never empty and never another company's.
 */
import type { WebsiteContent } from '@platform/contracts/website.js';

export function defaultWebsiteContent(companyName: string): WebsiteContent {
  return {
    hero: {
      title: `Blinds, shades and shutters made for your windows`,
      lead: `${companyName} measures every window, orders your coverings to the eighth of an inch and installs them. The in-home estimate is free.`,
      cta: 'Book a free estimate',
    },
    tagline: 'Custom window coverings, measured and installed',
    hours: '',
    about: {
      title: `About ${companyName}`,
      body: `${companyName} measures, supplies and installs custom blinds, shades and shutters.\n\nEvery job is measured by our own team before anything is ordered.`,
    },
    faq: [
      { q: 'Is the estimate free?', a: 'Yes. We visit, measure and quote at no cost and with no obligation.' },
      { q: 'How long does it take?', a: 'Made-to-measure coverings usually arrive two to four weeks after you order.' },
    ],
    gallery: [],
    products_shown: [],
    show_prices: true,
    areas_shown: [],
  };
}
