/** The HTML shell shared by every page: head, header, footer, critical CSS and the one client bundle. */
import { NO_SCRIPT_PAGE } from '../client/messages.js';
import type { SiteContent } from './content.loader.js';
import { formsOff, NO_SCRIPT_SLOT } from './forms.view.js';
import { html, raw, type Safe } from './html.js';

export interface Shell {
  siteName: string;
  css: string;
  scriptPath: string;
  captcha: { scriptUrl: string; siteKey: string };
  content: SiteContent;
  /** Public origin (https://www.example.com) for canonical and Open Graph URLs; without it canonical is a path and og:url is left out. */
  publicUrl?: string;
  /** A tenant's site (tenant-site.view.ts): its brand instead of the platform's defaults. */
  brand?: Brand;
  /** A draft preview (tenant-preview.routes.ts): a banner saying so, and forms that cannot post. */
  preview?: boolean;
}

/** What differs between the platform's own site and a tenant's: the header, head and footer extras. */
export interface Brand {
  nav: [href: string, label: string][];
  logoUrl: string | null;
  faviconUrl: string | null;
  /** `:root{...}` overriding the stylesheet's colours, already checked for contrast. */
  themeCss: string;
  /** The tenant's own Meta pixel: loaded on its pages only. */
  pixelId: string | null;
  social: { label: string; href: string }[];
  legal: string;
}

export interface PageMeta {
  path: string;
  title: string;
  description: string;
  /** LP pages: a slim header without the site navigation. */
  landing?: boolean;
  /** Slug recorded as `lp_slug` when this page is where the visit starts. */
  lpSlug?: string;
  /** Open Graph type: blog posts are articles. */
  ogType?: 'website' | 'article';
  /** Pages that are answers, not content (404, the no-JavaScript page): no canonical, not indexed. */
  noindex?: boolean;
  /** The whole <title> when the site's owner wrote one (a tenant's meta_title on its home). */
  headTitle?: string;
}

/** Shared-link preview: 1200 x 630, public/img/share.png. */
const SHARE_IMAGE = '/img/share.png';

function headTags(s: Shell, meta: PageMeta, title: string): Safe {
  if (meta.noindex) return html`<meta name="robots" content="noindex">`;
  const abs = (path: string): string => (s.publicUrl ? `${s.publicUrl}${path}` : path);
  return html`<link rel="canonical" href="${abs(meta.path)}">
<meta property="og:type" content="${meta.ogType ?? 'website'}">
<meta property="og:site_name" content="${s.siteName}">
<meta property="og:title" content="${meta.path === '/' ? title : meta.title}">
<meta property="og:description" content="${meta.description}">
<meta property="og:locale" content="en_US">
${
  s.publicUrl && s.brand
    ? html`<meta property="og:url" content="${abs(meta.path)}">
<meta name="twitter:card" content="summary">`
    : s.publicUrl
      ? html`<meta property="og:url" content="${abs(meta.path)}">
<meta property="og:image" content="${abs(SHARE_IMAGE)}">
<meta property="og:image:width" content="1200"><meta property="og:image:height" content="630">
<meta property="og:image:alt" content="${s.siteName}: ${s.content.site.tagline}">
<meta name="twitter:card" content="summary_large_image">`
      : ''
}`;
}

/** The main navigation. On phones it folds behind a Menu button (a native popover: works without the script). */
function mainNav(current: string, nav: [string, string][]): Safe {
  return html`<button type="button" class="menu-toggle" popovertarget="site-menu" aria-controls="site-menu" aria-expanded="false"><span class="menu-icon" aria-hidden="true"></span>Menu</button>
<nav aria-label="Main"><ul class="nav" id="site-menu" popover>${nav.map(
    ([href, label]) =>
      html`<li><a href="${href}"${href === current ? html` aria-current="page"` : ''}>${label}</a></li>`,
  )}</ul></nav>`;
}

const NAV: [string, string][] = [
  ['/', 'Home'],
  ['/#products', 'Products'],
  ['/gallery', 'Gallery'],
  ['/faq', 'FAQ'],
  ['/blog', 'Blog'],
  ['/about', 'About'],
  ['/helpdesk', 'Help'],
];

export function layout(s: Shell, meta: PageMeta, main: Safe, extra: Safe | '' = ''): string {
  const c = s.content.site;
  const title =
    meta.headTitle ?? (meta.path === '/' ? `${s.siteName} | ${c.tagline}` : `${meta.title} | ${s.siteName}`);
  const nav = meta.landing
    ? html`<a class="header-phone" href="tel:${c.phoneHref}">Call ${c.phone}</a>`
    : mainNav(meta.path, s.brand?.nav ?? NAV);
  const b = s.brand;
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<meta name="description" content="${meta.description}">
${headTags(s, meta, title)}
${b?.faviconUrl ? html`<link rel="icon" href="${b.faviconUrl}">` : html`<link rel="icon" href="/favicon.svg" type="image/svg+xml">`}
<style>${raw(s.css)}${raw(b?.themeCss ?? '')}${raw(s.preview ? PREVIEW_CSS : '')}</style>
<script type="module" src="${s.scriptPath}"></script>
</head>
<body data-captcha-src="${s.captcha.scriptUrl}" data-captcha-key="${s.captcha.siteKey}" data-phone="${c.phone}"${meta.lpSlug ? html` data-lp-slug="${meta.lpSlug}"` : ''}>
<a class="skip" href="#main">Skip to content</a>${s.preview ? previewBanner() : ''}
<header class="site-header"><div class="wrap header-row">
<a class="brand" href="/"><img src="${b?.logoUrl ?? '/img/logo.svg'}" width="32" height="32" alt=""> <span>${s.siteName}</span></a>
${nav}
</div></header>
<main id="main">
${main}
</main>
${meta.landing ? landingFooter(s) : siteFooter(s)}
${extra}
${b?.pixelId ? metaPixel(b.pixelId) : ''}
</body>
</html>`;
  const out = page.value.replaceAll(NO_SCRIPT_SLOT, noScriptNotice(s).value);
  return s.preview ? formsOff(out) : out;
}

/** Only on preview pages (the live pages' inlined stylesheet stays as it is). White reads on --brand: themeCss checks it. */
const PREVIEW_CSS =
  '.preview-banner{background:var(--brand);color:#fff;padding:.6rem 1rem;text-align:center}.preview-banner p{margin:0}';

/** A landmark of its own, named by its first words, so a screen reader lists it with the page's regions. */
const previewBanner = (): Safe =>
  html`<aside class="preview-banner" aria-labelledby="preview-banner-title"><p><strong id="preview-banner-title">Preview — not published</strong>. Visitors see the published site until you publish; forms here send nothing.</p></aside>`;

/** Inside every form: without JavaScript no bot check can run, so say so before anyone types. */
function noScriptNotice(s: Shell): Safe {
  const c = s.content.site;
  const [before, after] = NO_SCRIPT_PAGE.notice.split('{phone}') as [string, string];
  const [middle, end] = after.split('{email}') as [string, string];
  // A tenant may have set no phone or email yet: the notice then says only what it can.
  if (!c.phone || !c.email) return html`<noscript><p class="form-alert">${NO_SCRIPT_PAGE.noticeBare}</p></noscript>`;
  return html`<noscript><p class="form-alert">${before}<a href="tel:${c.phoneHref}">${c.phone}</a>${middle}<a href="mailto:${c.email}">${c.email}</a>${end}</p></noscript>`;
}

/**
 * Meta's standard pixel loader and PageView, for a tenant that set its own pixel id (the platform's
 * site sends its conversions server-side only). The id is digits only (settings validate it), and is
 * still escaped as a JS string.
 */
function metaPixel(id: string): Safe {
  const js = JSON.stringify(id).replace(/</g, '\\u003c');
  return html`<script>!function(f,b,e,v,n,t,s){if(f.fbq)return;n=f.fbq=function(){n.callMethod?n.callMethod.apply(n,arguments):n.queue.push(arguments)};if(!f._fbq)f._fbq=n;n.push=n;n.loaded=!0;n.version='2.0';n.queue=[];t=b.createElement(e);t.async=!0;t.src=v;s=b.getElementsByTagName(e)[0];s.parentNode.insertBefore(t,s)}(window,document,'script','https://connect.facebook.net/en_US/fbevents.js');fbq('init',${raw(js)});fbq('track','PageView');</script>
<noscript><img height="1" width="1" style="display:none" alt="" src="https://www.facebook.com/tr?id=${id}&amp;ev=PageView&amp;noscript=1"></noscript>`;
}

function siteFooter(s: Shell): Safe {
  const c = s.content.site;
  const contact = [
    c.phone && html`<a href="tel:${c.phoneHref}">${c.phone}</a>`,
    c.email && html`<a href="mailto:${c.email}">${c.email}</a>`,
    c.address,
    c.hours,
    ...(s.brand?.social ?? []).map((l) => html`<a href="${l.href}" rel="me noopener">${l.label}</a>`),
  ].filter(Boolean);
  return html`<footer class="site-footer"><div class="wrap footer-grid">
<div><p class="footer-brand">${s.siteName}</p><p>${c.tagline}.</p>
<p>${contact.map((x, i) => html`${i ? html`<br>` : ''}${x}`)}</p></div>
${s.content.products.length ? html`<nav aria-label="Products"><h2>Products</h2><ul>${s.content.products.map((p) => html`<li><a href="/products/${p.slug}">${p.name}</a></li>`)}</ul></nav>` : ''}
${s.content.locations.length ? html`<nav aria-label="Service areas"><h2>Service areas</h2><ul class="areas">${s.content.locations.map((l) => html`<li><a href="/areas/${l.slug}">${l.city}</a></li>`)}</ul></nav>` : ''}
</div><p class="wrap legal">&copy; ${new Date().getFullYear()} ${s.siteName}. ${s.brand?.legal ?? 'Licensed and insured in Colorado.'}</p></footer>`;
}

function landingFooter(s: Shell): Safe {
  const c = s.content.site;
  return html`<footer class="site-footer"><div class="wrap"><p>${s.siteName} &middot; ${c.address} &middot; <a href="tel:${c.phoneHref}">${c.phone}</a></p>
<p class="legal">&copy; ${new Date().getFullYear()} ${s.siteName}. Offers valid for new orders in our service area.</p></div></footer>`;
}
