/**
 * The field app's one HTML shell (for /field/login, /field/jobs and /field/jobs/:id alike): the
 * client bundle renders the screen from the jobs kept on the phone, so the same cached shell works
 * offline for any job.
 */
import type { Branding } from '../tenancy/branding.service.js';
import { page } from './layout.view.js';

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

/** The office's shell (leads inbox, dispatch board): rendered by the office bundle from the control plane. */
export function officeShell(branding: Branding, tenant: { id: string; slug: string }, script: string): string {
  const body = `<nav aria-label="Office" class="row" style="margin-bottom:.5rem"><a href="/office/leads">Leads inbox</a><a href="/office/dispatch">Dispatch board</a></nav>
<div id="app" aria-live="polite"><p class="muted">Loading…</p></div><noscript><p>The office views need JavaScript.</p></noscript>`;
  return page({ branding, title: 'Office', body, script, dataset: { tenantId: tenant.id, tenantSlug: tenant.slug } });
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
