/**
 * The field app's one HTML shell (for /field/login, /field/jobs and /field/jobs/:id alike): the
 * client bundle renders the screen from the jobs kept on the phone, so the same cached shell works
 * offline for any job.
 */
import type { Branding } from '../tenancy/branding.service.js';
import { page } from './layout.view.js';
import { OFFICE_CSS, UPLOT_CSS } from './styles.js';

export function fieldShell(branding: Branding, tenant: { id: string; slug: string }, script: string): string {
  const body = `<div id="net" class="banner" role="status" hidden>Offline: changes are kept on this phone and sent when the connection returns.</div>
<div id="app" aria-live="polite"><p class="muted">Loading your jobs…</p></div>
<noscript><p>The field app needs JavaScript.</p></noscript>`;
  return page({
    branding,
    title: 'Field',
    body,
    script,
    manifest: true,
    clientRendered: true,
    dataset: { tenantId: tenant.id, tenantSlug: tenant.slug },
  });
}

const OFFICE_NAV: [string, string][] = [
  ['/office/leads', 'Leads'],
  ['/office/customers', 'Customers'],
  ['/office/quotes', 'Quotes'],
  ['/office/dispatch', 'Dispatch'],
  ['/office/invoices', 'Invoices'],
  ['/office/purchase-orders', 'Purchase orders'],
  ['/office/stock', 'Stock'],
  ['/office/reports', 'Reports'],
];

/**
 * The office's shell (leads inbox, quotes, dispatch board): rendered by the office bundle from the
 * control plane. The nav marks the current area (a quote belongs to Quotes).
 */
export function officeShell(
  branding: Branding,
  tenant: { id: string; slug: string },
  script: string,
  path = '/office/leads',
): string {
  const links = OFFICE_NAV.map(
    ([href, label]) =>
      `<a href="${href}"${path === href || path.startsWith(`${href}/`) ? ' aria-current="page"' : ''}>${label}</a>`,
  ).join('');
  // Shown by the bundle to owners and admins only (the role is known once signed in).
  const settings = `<a id="nav-settings" href="/office/settings/company" hidden${path.startsWith('/office/settings/') ? ' aria-current="page"' : ''}>Settings</a>`;
  const body = `<nav aria-label="Office" class="row office-nav">${links}${settings}</nav>
<div id="app" aria-live="polite"><p class="muted">Loading…</p></div><noscript><p>The office views need JavaScript.</p></noscript>`;
  return page({
    branding,
    title: 'Office',
    body,
    script,
    css: path === '/office/reports' ? `${OFFICE_CSS}${UPLOT_CSS}` : OFFICE_CSS,
    dataset: { tenantId: tenant.id, tenantSlug: tenant.slug, currency: branding.currency },
  });
}

export function manifest(branding: Branding): object {
  return {
    name: `${branding.name} Field`,
    short_name: branding.name.slice(0, 12),
    start_url: '/field/jobs',
    scope: '/field/',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: branding.primary,
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  };
}
