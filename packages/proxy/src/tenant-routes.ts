/**
 * The path split of a tenant host (an active custom domain or `<slug>.<TENANTS_HOST>`): the
 * frontend's customer-facing paths — quote portal, field app, office, contact and account pages, its
 * API and PWA files — go to the frontend; everything else (the tenant's website and its form API) to
 * the landing host. Both services resolve the tenant from the Host header, which the proxy keeps.
 */

/** Upstream names in nginx.conf: the landing host (also the ACME http-01 answers) and the frontend. */
export const TENANT_SITES_UPSTREAM = 'tenant_sites';
export const TENANT_FRONTEND_UPSTREAM = 'tenant_frontend';

/** Body limits of a tenant host, one per service, so the proxy refuses what the service would. */
export interface TenantBodyLimits {
  landing: string;
  frontend: string;
  /** /api/control/: the frontend forwards job photos to the control plane through it. */
  frontendControl: string;
}

// Whole subtrees of the frontend (apps/frontend/src/features/pages, control-proxy).
const FRONTEND_SUBTREES = ['/portal/', '/field/', '/office/', '/account/', '/icons/'];
// Single paths; `/field` and `/office` redirect into their subtree. Exact matches, so a landing page
// such as /fieldwork or /contact-us stays with the landing host.
const FRONTEND_PATHS = [
  '/field',
  '/office',
  '/contact',
  '/api/contact',
  '/api/health',
  '/manifest.webmanifest',
  '/sw.js',
];
// Both services serve /assets/: the landing host `site.<hash>.js`, the frontend one bundle per area
// (`<area>.<hash>.js`, apps/frontend/src/assets/assets.ts). Only the frontend's bundle names go there.
export const FRONTEND_BUNDLE_PATTERN = '^/assets/(field|portal|contact|office|account)\\.[0-9a-f]+\\.js$';

function location(match: string, upstream: string, maxBody: string): string {
  return `    location ${match} {
      client_max_body_size ${maxBody};
      proxy_pass http://${upstream};
      include snippets/proxy-headers.conf;
    }`;
}

/** The location blocks of a tenant host's HTTPS server (after /nginx-health). */
export function tenantLocations(limits: TenantBodyLimits): string {
  const frontend = (match: string, maxBody = limits.frontend) => location(match, TENANT_FRONTEND_UPSTREAM, maxBody);
  return [
    // `^~`: a prefix match that no regex location below can take over.
    ...FRONTEND_SUBTREES.map((p) => frontend(`^~ ${p}`)),
    ...FRONTEND_PATHS.map((p) => frontend(`= ${p}`)),
    frontend('= /api/control', limits.frontendControl),
    frontend('^~ /api/control/', limits.frontendControl),
    frontend(`~ ${FRONTEND_BUNDLE_PATTERN}`),
    location('/', TENANT_SITES_UPSTREAM, limits.landing),
  ].join('\n');
}
