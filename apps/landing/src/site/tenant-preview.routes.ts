/**
 * GET /_preview?token=…[&path=/faq] on a tenant's host: the tenant's DRAFT rendered as its site would
 * show it (docs/website.md, "Preview"), for the owner who got the link from the console. Never public
 * or kept: an expired, forged or other tenant's token is the tenant's 404; the page is `noindex`,
 * `no-store`, sends no Referer (the token is in the URL) and loads no Meta pixel (not a real visit);
 * a banner says it is a preview and its forms cannot post.
 */
import type { WebsiteSnapshot } from '@platform/contracts/website.js';
import type { FastifyInstance } from 'fastify';

import type {} from '../features/tenancy/tenant-host.hook.js';
import { renderTenantSite, type SharedShell } from './tenant-site.js';
import type { TenantSiteHandler } from './tenant-site.routes.js';

export const PREVIEW_PATH = '/_preview';

/** The tenant's draft for a valid token, else null (@platform/website's openWebsitePreview). */
export type PreviewOpener = (tenantId: string, token: string) => Promise<WebsiteSnapshot | null>;

export function registerTenantPreview(
  app: FastifyInstance,
  shell: SharedShell,
  tenant: TenantSiteHandler,
  open: PreviewOpener,
): void {
  app.get(PREVIEW_PATH, async (req, reply) => {
    if (!tenant.serves(req)) return reply.callNotFound();
    const q = req.query as { token?: unknown; path?: unknown };
    const snap = typeof q.token === 'string' && q.token ? await open(req.tenant!.tenantId, q.token) : null;
    const path = typeof q.path === 'string' && q.path.startsWith('/') ? q.path : '/';
    const page = snap && renderTenantSite({ ...snap, meta_pixel_id: null }, shell, { preview: true }).assets.get(path);
    // No page for this token: the same 404 as any unknown address on the tenant's site.
    if (!page?.type.startsWith('text/html')) return tenant.page(req, reply);
    return reply
      .type(page.type)
      .header('cache-control', 'no-store')
      .header('x-robots-tag', 'noindex, nofollow')
      .header('referrer-policy', 'no-referrer')
      .send(page.body);
  });
}
