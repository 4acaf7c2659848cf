/** The HTML shell shared by every page: head, header, footer, critical CSS and the one client bundle. */
import { html, raw, type Safe } from './html.js';
import type { SiteContent } from './content.loader.js';

export interface Shell {
  siteName: string;
  css: string;
  scriptPath: string;
  captcha: { scriptUrl: string; siteKey: string };
  content: SiteContent;
}

export interface PageMeta {
  path: string;
  title: string;
  description: string;
  /** LP pages: a slim header without the site navigation. */
  landing?: boolean;
  /** Slug recorded as `lp_slug` when this page is where the visit starts. */
  lpSlug?: string;
}

const NAV: [string, string][] = [
  ['/', 'Home'], ['/#products', 'Products'], ['/gallery', 'Gallery'], ['/faq', 'FAQ'],
  ['/blog', 'Blog'], ['/about', 'About'], ['/helpdesk', 'Help'],
];

export function layout(s: Shell, meta: PageMeta, main: Safe, extra: Safe | '' = ''): string {
  const c = s.content.site;
  const title = meta.path === '/' ? `${s.siteName} | ${c.tagline}` : `${meta.title} | ${s.siteName}`;
  const nav = meta.landing
    ? html`<a class="header-phone" href="tel:${c.phoneHref}">Call ${c.phone}</a>`
    : html`<nav aria-label="Main"><ul class="nav">${NAV.map(([href, label]) =>
        html`<li><a href="${href}"${href === meta.path ? html` aria-current="page"` : ''}>${label}</a></li>`)}</ul></nav>`;
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<meta name="description" content="${meta.description}">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>${raw(s.css)}</style>
<script type="module" src="${s.scriptPath}"></script>
</head>
<body data-captcha-src="${s.captcha.scriptUrl}" data-captcha-key="${s.captcha.siteKey}"${meta.lpSlug ? html` data-lp-slug="${meta.lpSlug}"` : ''}>
<a class="skip" href="#main">Skip to content</a>
<header class="site-header"><div class="wrap header-row">
<a class="brand" href="/"><img src="/img/logo.svg" width="32" height="32" alt=""> <span>${s.siteName}</span></a>
${nav}
</div></header>
<main id="main">
${main}
</main>
${meta.landing ? landingFooter(s) : siteFooter(s)}
${extra}
</body>
</html>`;
  return page.value;
}

function siteFooter(s: Shell): Safe {
  const c = s.content.site;
  return html`<footer class="site-footer"><div class="wrap footer-grid">
<div><p class="footer-brand">${s.siteName}</p><p>${c.tagline}.</p>
<p><a href="tel:${c.phoneHref}">${c.phone}</a><br><a href="mailto:${c.email}">${c.email}</a><br>${c.address}<br>${c.hours}</p></div>
<nav aria-label="Products"><h2>Products</h2><ul>${s.content.products.map((p) => html`<li><a href="/products/${p.slug}">${p.name}</a></li>`)}</ul></nav>
<nav aria-label="Service areas"><h2>Service areas</h2><ul class="areas">${s.content.locations.map((l) => html`<li><a href="/areas/${l.slug}">${l.city}</a></li>`)}</ul></nav>
</div><p class="wrap legal">&copy; ${new Date().getFullYear()} ${s.siteName}. Licensed and insured in Colorado.</p></footer>`;
}

function landingFooter(s: Shell): Safe {
  const c = s.content.site;
  return html`<footer class="site-footer"><div class="wrap"><p>${s.siteName} &middot; ${c.address} &middot; <a href="tel:${c.phoneHref}">${c.phone}</a></p>
<p class="legal">&copy; ${new Date().getFullYear()} ${s.siteName}. Offers valid for new orders in our service area.</p></div></footer>`;
}
