/**
 * The public website on the landing host. The platform's own pages are rendered once at start-up
 * from content/; a tenant's host gets its own site, rendered from its snapshot on first request and
 * cached (tenant-site.routes.ts). Both are served from memory; /api/*, /health and the bot-check
 * script belong to the landing app itself.
 */
import type { WebsiteSnapshotSource } from '@platform/website';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { closestPage, noScriptPage, notFoundPage } from './answer-pages.view.js';
import { type Asset, buildClientBundle, buildCss, loadPublic, makeAsset, sendAsset } from './assets.js';
import { ContentError, loadContent, type SiteContent } from './content.loader.js';
import { formSource } from './form-sources.js';
import { popupDialog } from './forms.view.js';
import { NO_SCRIPT_PATH } from './forms.view.js';
import { lpLegacyPage, lpV2Page } from './landing-pages.view.js';
import { layout, type PageMeta, type Shell } from './layout.view.js';
import type { PageBody } from './pages.view.js';
import * as pages from './pages.view.js';
import { type PreviewOpener, registerTenantPreview } from './tenant-preview.routes.js';
import { decodePath, tenantSiteHandler, wantsHtml } from './tenant-site.routes.js';

export { sendAsset };

export interface SiteOptions {
  siteName: string;
  captcha: { scriptUrl: string; siteKey: string };
  /** Another content/ directory (tests); default apps/landing/content. */
  contentDir?: string;
  /** Public origin of the site (SITE_URL) for canonical and Open Graph URLs. */
  publicUrl?: string;
  /** Tenants' own sites: where their snapshots come from (absent: each tenant's name and the default copy). */
  websites?: WebsiteSnapshotSource;
  /** `<slug>.<tenantsHost>` is a tenant's primary host when no snapshot names one. */
  tenantsHost?: string;
  /** Tenants whose rendered sites are kept in memory (default 500). */
  maxTenantSites?: number;
  /** Opens a draft preview token (absent: /_preview is not served). */
  preview?: PreviewOpener;
}

interface PageDef {
  meta: PageMeta;
  page: PageBody;
  popup?: { template: string; mode: 'auto' | 'cta' };
}

/** Every page of the site, by path. Exported for tests and the docs inventory. */
export function sitePages(c: SiteContent): PageDef[] {
  const defs: PageDef[] = [];
  const add = (path: string, page: PageBody, extra: Partial<PageMeta> = {}, popup?: PageDef['popup']): void => {
    const auto = c.popupPages.get(path);
    defs.push({
      meta: { path, title: page.title, description: page.description, ...extra },
      page,
      popup: popup ?? (auto ? { template: auto, mode: 'auto' } : undefined),
    });
  };
  add('/', pages.homePage(c));
  add('/about', pages.aboutPage(c));
  add('/gallery', pages.galleryPage(c));
  add('/faq', pages.faqPage(c));
  add('/helpdesk', pages.helpdeskPage(c));
  add('/blog', pages.blogIndexPage(c));
  for (const p of c.posts) add(`/blog/${p.slug}`, pages.blogPostPage(c, p), { ogType: 'article' });
  for (const p of c.products) add(`/products/${p.slug}`, pages.productPage(c, p));
  for (const l of c.locations) add(`/areas/${l.slug}`, pages.localPage(c, l));
  for (const lp of c.lpV2) {
    add(
      `/lp/${lp.slug}`,
      lpV2Page(c, lp),
      { landing: true, lpSlug: lp.slug },
      { template: formSource.lp(lp.slug, 'hero'), mode: 'cta' },
    );
  }
  for (const lp of c.lpLegacy) add(`/go/${lp.slug}`, lpLegacyPage(c, lp), { landing: true, lpSlug: lp.slug });
  const missing = [...c.popupPages.keys()].filter((p) => !defs.some((d) => d.meta.path === p));
  if (missing.length)
    throw new ContentError('popup-pages.json', [`pages: ${missing.join(', ')} is not a page of the site`]);
  return defs;
}

/** Paths that are not pages: their 404 stays the app's problem+json answer. */
const NOT_PAGES = /^\/(api|health|local-captcha|assets|img)(\/|$)|\.[a-z0-9]+$/i;

export async function registerSite(app: FastifyInstance, opts: SiteOptions): Promise<void> {
  const content = loadContent(opts.contentDir ? { dir: opts.contentDir } : {});
  const [bundle, css] = await Promise.all([buildClientBundle(), buildCss()]);
  const shell: Shell = {
    siteName: opts.siteName,
    css,
    scriptPath: bundle.path,
    captcha: opts.captcha,
    content,
    ...(opts.publicUrl ? { publicUrl: opts.publicUrl.replace(/\/+$/, '') } : {}),
  };
  const defs = sitePages(content);
  // A request whose host is a tenant's (not the platform's own) is answered from that tenant's site.
  const tenant = tenantSiteHandler(shell, opts);
  if (opts.preview) registerTenantPreview(app, shell, tenant, opts.preview);
  const own = (asset: Asset) => (req: FastifyRequest, reply: FastifyReply) =>
    tenant.serves(req) ? tenant.page(req, reply) : sendAsset(req, reply, asset, 'no-cache');

  for (const def of defs) {
    const extra = def.popup ? popupDialog(def.popup.template, def.popup.mode) : '';
    const asset = makeAsset(layout(shell, def.meta, def.page.body, extra), 'text/html; charset=utf-8');
    app.get(def.meta.path, own(asset));
  }
  app.get(bundle.path, (req, reply) => sendAsset(req, reply, bundle.asset, 'public, max-age=31536000, immutable'));
  for (const [path, asset] of loadPublic()) {
    // robots.txt names the site's own pages: a tenant's lists its sitemap on its primary host.
    const handler =
      path === '/robots.txt'
        ? own(asset)
        : (req: FastifyRequest, reply: FastifyReply) => sendAsset(req, reply, asset, 'public, max-age=86400');
    app.get(path, handler);
  }

  // A form posted without JavaScript: no bot check could run, so nothing is read or kept. The
  // visitor is sent (303, so a reload does not post again) to a page with the phone and helpdesk.
  const noScriptBody = noScriptPage(content);
  const noScript = makeAsset(
    layout(shell, { path: NO_SCRIPT_PATH, ...noScriptBody, noindex: true }, noScriptBody.body),
    'text/html; charset=utf-8',
  );
  app.get(NO_SCRIPT_PATH, own(noScript));
  await app.register(async (scope) => {
    // Only in this scope: the API keeps answering 415 to anything but JSON.
    scope.addContentTypeParser(
      ['application/x-www-form-urlencoded', 'multipart/form-data'],
      { parseAs: 'buffer' },
      (_req, _body, done) => done(null, null),
    );
    scope.post(NO_SCRIPT_PATH, (_req, reply) =>
      reply.code(303).header('location', NO_SCRIPT_PATH).header('cache-control', 'no-store').send(),
    );
  });

  // A mistyped page address gets an HTML 404 with the navigation; API paths and clients that ask
  // for JSON get the app's problem+json 404 (reply.callNotFound).
  const candidates = defs.filter((d) => !d.meta.landing).map((d) => ({ path: d.meta.path, title: d.page.title }));
  app.get('/*', (req, reply) => {
    const path = req.url.split('?')[0]!;
    if (tenant.serves(req) && (path === '/sitemap.xml' || !(NOT_PAGES.test(path) || !wantsHtml(req.headers.accept))))
      return tenant.page(req, reply);
    if (NOT_PAGES.test(path) || !wantsHtml(req.headers.accept)) return reply.callNotFound();
    const page = notFoundPage(content, closestPage(candidates, decodePath(path)));
    const body = layout(shell, { path, ...page, noindex: true }, page.body);
    return reply.code(404).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(body);
  });
}
