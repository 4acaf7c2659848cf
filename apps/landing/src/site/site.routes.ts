/**
 * The public website on the landing host. Pages are rendered once at start-up from content/ and
 * served from memory; /api/*, /health and the bot-check script belong to the landing app itself.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ContentError, loadContent, type SiteContent } from './content.loader.js';
import { buildClientBundle, buildCss, loadPublic, makeAsset, pickEncoding, type Asset } from './assets.js';
import { layout, type Shell, type PageMeta } from './layout.view.js';
import { popupDialog } from './forms.view.js';
import { formSource } from './form-sources.js';
import * as pages from './pages.view.js';
import { lpLegacyPage, lpV2Page } from './landing-pages.view.js';
import type { PageBody } from './pages.view.js';

export interface SiteOptions {
  siteName: string;
  captcha: { scriptUrl: string; siteKey: string };
  /** Another content/ directory (tests); default apps/landing/content. */
  contentDir?: string;
}

interface PageDef { meta: PageMeta; page: PageBody; popup?: { template: string; mode: 'auto' | 'cta' } }

/** Every page of the site, by path. Exported for tests and the docs inventory. */
export function sitePages(c: SiteContent): PageDef[] {
  const defs: PageDef[] = [];
  const add = (path: string, page: PageBody, extra: Partial<PageMeta> = {}, popup?: PageDef['popup']): void => {
    const auto = c.popupPages.get(path);
    defs.push({ meta: { path, title: page.title, description: page.description, ...extra }, page, popup: popup ?? (auto ? { template: auto, mode: 'auto' } : undefined) });
  };
  add('/', pages.homePage(c));
  add('/about', pages.aboutPage(c));
  add('/gallery', pages.galleryPage(c));
  add('/faq', pages.faqPage(c));
  add('/helpdesk', pages.helpdeskPage(c));
  add('/blog', pages.blogIndexPage(c));
  for (const p of c.posts) add(`/blog/${p.slug}`, pages.blogPostPage(c, p));
  for (const p of c.products) add(`/products/${p.slug}`, pages.productPage(c, p));
  for (const l of c.locations) add(`/areas/${l.slug}`, pages.localPage(c, l));
  for (const lp of c.lpV2) {
    add(`/lp/${lp.slug}`, lpV2Page(c, lp), { landing: true, lpSlug: lp.slug }, { template: formSource.lp(lp.slug, 'hero'), mode: 'cta' });
  }
  for (const lp of c.lpLegacy) add(`/go/${lp.slug}`, lpLegacyPage(c, lp), { landing: true, lpSlug: lp.slug });
  const missing = [...c.popupPages.keys()].filter((p) => !defs.some((d) => d.meta.path === p));
  if (missing.length) throw new ContentError('popup-pages.json', [`pages: ${missing.join(', ')} is not a page of the site`]);
  return defs;
}

/** Sends a prepared asset with its validator and best encoding (also used by bench/site for baselines). */
export function sendAsset(req: FastifyRequest, reply: FastifyReply, a: Asset, cache: string): FastifyReply {
  reply.header('content-type', a.type).header('cache-control', cache).header('etag', a.etag).header('vary', 'accept-encoding');
  if (req.headers['if-none-match'] === a.etag) return reply.code(304).send();
  const enc = pickEncoding(req.headers['accept-encoding']);
  if (enc) reply.header('content-encoding', enc);
  return reply.send(enc === 'br' ? a.br : enc === 'gzip' ? a.gzip : a.body);
}

export async function registerSite(app: FastifyInstance, opts: SiteOptions): Promise<void> {
  const content = loadContent(opts.contentDir ? { dir: opts.contentDir } : {});
  const [bundle, css] = await Promise.all([buildClientBundle(), buildCss()]);
  const shell: Shell = { siteName: opts.siteName, css, scriptPath: bundle.path, captcha: opts.captcha, content };

  for (const def of sitePages(content)) {
    const extra = def.popup ? popupDialog(def.popup.template, def.popup.mode) : '';
    const asset = makeAsset(layout(shell, def.meta, def.page.body, extra), 'text/html; charset=utf-8');
    app.get(def.meta.path, (req, reply) => sendAsset(req, reply, asset, 'no-cache'));
  }
  app.get(bundle.path, (req, reply) => sendAsset(req, reply, bundle.asset, 'public, max-age=31536000, immutable'));
  for (const [path, asset] of loadPublic()) {
    app.get(path, (req, reply) => sendAsset(req, reply, asset, 'public, max-age=86400'));
  }
}
