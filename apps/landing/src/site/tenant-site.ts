/**
 * One tenant's whole site rendered from its snapshot, the way the platform's own site is rendered at
 * start-up: every page through the shared layout (with the popup where the platform has it), kept
 * as compressed assets with ETags, plus its sitemap, robots.txt and the no-JavaScript page.
 */
import type { WebsiteSnapshot } from '@platform/contracts/website.js';

import { closestPage, noScriptPage, notFoundPage } from './answer-pages.view.js';
import { type Asset, makeAsset } from './assets.js';
import type { SiteContent } from './content.loader.js';
import { NO_SCRIPT_PATH, popupDialog } from './forms.view.js';
import { layout, type PageMeta, type Shell } from './layout.view.js';
import type { PageBody } from './pages.view.js';
import * as pages from './pages.view.js';
import { tenantBrand, tenantContent } from './tenant-content.js';
import * as tp from './tenant-pages.view.js';

/** What the platform's site shares with every tenant's: the inlined stylesheet, the bundle, the bot-check script. */
export type SharedShell = Pick<Shell, 'css' | 'scriptPath' | 'captcha'>;

export interface TenantSite {
  tenantId: string;
  version: number;
  /** Path -> page, sitemap.xml, robots.txt and the no-JavaScript page. */
  assets: Map<string, Asset>;
  /** The HTML 404 in the tenant's brand, with "Did you mean …?" for the requested path. */
  notFound(path: string): string;
}

const HTML = 'text/html; charset=utf-8';

/** `preview`: a draft preview, never indexed, with a banner saying so and forms that cannot post. */
export function renderTenantSite(
  snap: WebsiteSnapshot,
  shared: SharedShell,
  opts: { preview?: boolean } = {},
): TenantSite {
  const content = tenantContent(snap);
  const shell: Shell = {
    ...shared,
    siteName: snap.company.name,
    content,
    publicUrl: `https://${snap.primary_host}`,
    brand: tenantBrand(snap),
    ...(opts.preview ? { preview: true } : {}),
  };
  const defs = tenantPages(snap, content);
  const assets = new Map<string, Asset>();
  for (const { meta, page } of defs) {
    const template = content.popupPages.get(meta.path);
    const extra = template ? popupDialog(template, 'auto') : '';
    const m = opts.preview ? { ...meta, noindex: true } : meta;
    assets.set(meta.path, makeAsset(layout(shell, m, page.body, extra), HTML));
  }
  const paths = defs.map((d) => d.meta.path);
  assets.set('/sitemap.xml', makeAsset(tp.sitemapXml(snap, paths), 'application/xml; charset=utf-8'));
  assets.set('/robots.txt', makeAsset(tp.robotsTxt(snap), 'text/plain; charset=utf-8'));
  const ns = noScriptPage(content);
  assets.set(NO_SCRIPT_PATH, makeAsset(layout(shell, { path: NO_SCRIPT_PATH, ...ns, noindex: true }, ns.body), HTML));
  const candidates = defs.map((d) => ({ path: d.meta.path, title: d.page.title }));
  return {
    tenantId: snap.tenant_id,
    version: snap.version,
    assets,
    notFound(path) {
      const page = notFoundPage(content, closestPage(candidates, path));
      return layout(shell, { path, ...page, noindex: true }, page.body);
    },
  };
}

function tenantPages(snap: WebsiteSnapshot, c: SiteContent): { meta: PageMeta; page: PageBody }[] {
  const out: { meta: PageMeta; page: PageBody }[] = [];
  const add = (path: string, page: PageBody, extra: Partial<PageMeta> = {}): void => {
    out.push({ meta: { path, title: page.title, description: page.description, ...extra }, page });
  };
  const home = tp.tenantHomePage(c);
  add('/', home, {
    ...(snap.company.meta_title ? { headTitle: snap.company.meta_title } : {}),
    description: snap.company.meta_description ?? home.description,
  });
  add('/about', tp.tenantAboutPage(c));
  add('/gallery', tp.tenantGalleryPage(c, snap.content.gallery));
  add('/faq', pages.faqPage(c));
  if (snap.company.helpdesk_enabled) add('/helpdesk', pages.helpdeskPage(c));
  for (const p of c.products) add(`/products/${p.slug}`, tp.tenantProductPage(c, p));
  snap.catalog.areas.forEach((a, i) => add(`/areas/${a.slug}`, tp.tenantAreaPage(c, c.locations[i]!, a)));
  return out;
}
