/** The page for an unknown host or path: says where to go, names no tenant and no internals. */
import type { Branding } from '../tenancy/branding.service.js';
import { DEFAULT_PRIMARY, DEFAULT_SECONDARY } from '../tenancy/branding.service.js';
import { page } from './layout.view.js';

const NEUTRAL: Branding = {
  name: 'Not found',
  logoUrl: null,
  faviconUrl: null,
  primary: DEFAULT_PRIMARY,
  secondary: DEFAULT_SECONDARY,
  phone: null,
  email: null,
  address: null,
  helpdeskEnabled: false,
  portalEnabled: false,
  currency: 'USD',
};

export function notFoundPage(branding?: Branding): string {
  const body = branding
    ? `<h1>Page not found</h1><p>There is no page at this address. Check the link you followed, or contact us using the details below.</p>`
    : `<h1>Site not found</h1><p>No site is configured at this address. Check the address you typed or the link you followed.</p>`;
  return page({ branding: branding ?? NEUTRAL, title: 'Not found', body });
}
