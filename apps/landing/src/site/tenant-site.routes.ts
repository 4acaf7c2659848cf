/**
 * Serving a tenant's own site (docs/website.md, "The tenant's site on the landing host"): the
 * request's tenant comes from the host hook (features/tenancy); the platform's own host (the
 * default tenant) keeps the content/ site. A cached site answers synchronously from memory.
 */
import { defaultWebsiteSnapshot, type WebsiteSnapshotSource } from '@platform/website';
import type { FastifyReply, FastifyRequest } from 'fastify';

import type {} from '../features/tenancy/tenant-host.hook.js';
import { sendAsset } from './assets.js';
import { type TenantRef, TenantSiteCache } from './tenant-site.cache.js';
import { renderTenantSite, type SharedShell, type TenantSite } from './tenant-site.js';

export interface TenantSiteHandler {
  /** True when the request's host is a tenant's other than the platform's own. */
  serves(req: FastifyRequest): boolean;
  /** Answers from the tenant's site: its page, sitemap or robots.txt, else its 404. */
  page(req: FastifyRequest, reply: FastifyReply): FastifyReply | Promise<FastifyReply>;
  readonly cache: TenantSiteCache;
}

export const wantsHtml = (accept: string | undefined): boolean => !accept || /text\/html|\*\/\*/.test(accept);

export function tenantSiteHandler(
  shared: SharedShell,
  o: { websites?: WebsiteSnapshotSource; tenantsHost?: string; maxTenantSites?: number },
): TenantSiteHandler {
  const cache = new TenantSiteCache({
    ...(o.websites ? { source: o.websites } : {}),
    fallback: (t: TenantRef) =>
      defaultWebsiteSnapshot({
        tenantId: t.tenantId,
        name: t.name,
        primaryHost: `${t.slug}.${o.tenantsHost ?? 'localhost'}`,
      }),
    render: (snap) => renderTenantSite(snap, shared),
    ...(o.maxTenantSites ? { max: o.maxTenantSites } : {}),
  });

  const answer = (req: FastifyRequest, reply: FastifyReply, site: TenantSite): FastifyReply => {
    const path = req.url.split('?')[0]!;
    const asset = site.assets.get(path);
    if (asset) return sendAsset(req, reply, asset, 'no-cache');
    if (!wantsHtml(req.headers.accept)) {
      reply.callNotFound();
      return reply;
    }
    return reply
      .code(404)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(site.notFound(decodePath(path)));
  };

  return {
    cache,
    serves: (req) => Boolean(req.tenant && !req.tenant.isDefault),
    page(req, reply) {
      const t = req.tenant!;
      const site = cache.get({ tenantId: t.tenantId, slug: t.slug, name: t.siteName });
      return site instanceof Promise ? site.then((s) => answer(req, reply, s)) : answer(req, reply, site);
    },
  };
}

export function decodePath(p: string): string {
  try {
    return decodeURIComponent(p);
  } catch {
    return p;
  }
}
