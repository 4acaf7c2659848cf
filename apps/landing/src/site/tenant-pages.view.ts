/**
 * The page bodies that differ on a tenant's site: a home with an inline estimate form and an FAQ
 * teaser, product pages with the tenant's "from" price, area pages with ZIP codes and the branch's
 * phone, an about page ending in an article footer, a gallery of uploaded photos, and the sitemap
 * and robots.txt on its primary host. FAQ, helpdesk and the answer pages are the platform's own
 * views (pages.view.ts).
 */
import type { WebsiteArea, WebsiteGalleryItem, WebsiteSnapshot } from '@platform/contracts/website.js';

import type { Location, Product, SiteContent } from './content.loader.js';
import { formSource } from './form-sources.js';
import { estimateForm } from './forms.view.js';
import { html, raw, type Safe } from './html.js';
import type { PageBody } from './pages.view.js';

const art = (name: string, alt: string, w = 320, h = 240, eager = false): Safe =>
  html`<img class="art" src="/img/${name}.svg" width="${w}" height="${h}" alt="${alt}"${eager ? html` fetchpriority="high"` : html` loading="lazy"`}>`;

const call = (c: SiteContent): Safe | '' =>
  c.site.phone ? html` <a class="btn" href="tel:${c.site.phoneHref}">Call ${c.site.phone}</a>` : '';

const productCard = (p: Product): Safe => html`<li class="card">
${art(p.art, '')}<h3><a href="/products/${p.slug}">${p.name}</a></h3><p>${p.priceFrom || p.short}</p></li>`;

/** Media keys may hold `/`: each segment is encoded, the separators kept. */
export const mediaUrl = (key: string): string => `/media/${key.split('/').map(encodeURIComponent).join('/')}`;

export function tenantHomePage(c: SiteContent): PageBody {
  const h = c.site.home;
  return {
    title: 'Home',
    description: h.lead,
    body: html`<section class="hero"><div class="wrap hero-grid"><div>
<p class="kicker">${c.site.tagline}</p><h1>${h.title}</h1><p class="lead">${h.lead}</p>
<p class="cta-row"><a class="btn btn-primary" href="#estimate">${h.cta}</a>${call(c)}</p>
</div>${art('hero', 'A living room window dressed with a half-raised roller shade', 480, 360, true)}</div></section>
${c.products.length ? html`<section class="band" id="products"><div class="wrap"><h2>Our window coverings</h2><ul class="cards">${c.products.map(productCard)}</ul></div></section>` : ''}
${c.locations.length ? html`<section class="band alt"><div class="wrap"><h2 id="areas">Where we work</h2><ul class="pills">${c.locations.map((l) => html`<li><a href="/areas/${l.slug}">${l.city}</a></li>`)}</ul></div></section>` : ''}
<section class="band"><div class="wrap split"><div><h2>Questions we hear</h2>${c.site.faq.slice(0, 3).map((q) => html`<h3>${q.q}</h3><p>${q.a}</p>`)}
<p><a href="/faq">All questions and answers</a></p></div>
<div id="estimate">${estimateForm({ id: 'estimate-form', formSource: formSource.homeInline, heading: h.cta, products: c.products })}</div></div></section>`,
  };
}

export function tenantProductPage(c: SiteContent, p: Product): PageBody {
  return {
    title: p.name,
    description: p.short,
    body: html`<section class="hero"><div class="wrap hero-grid"><div>
<p class="kicker">Custom made, professionally installed</p><h1>${p.name}</h1><p class="lead">${p.intro}</p>${p.priceFrom ? html`<p class="price">${p.priceFrom}</p>` : ''}
<p class="cta-row"><a class="btn btn-primary" href="#estimate">Get a free estimate</a>${call(c)}</p></div>
${art(p.art, `Illustration of ${p.name.toLowerCase()} on a window`, 480, 360, true)}</div></section>
<section class="band"><div class="wrap split"><div><h2>Questions we hear</h2>${c.site.faq.slice(0, 3).map((q) => html`<h3>${q.q}</h3><p>${q.a}</p>`)}</div>
<div id="estimate">${estimateForm({ id: 'estimate-form', formSource: formSource.productInline(p.slug), heading: `Free ${p.name.toLowerCase()} estimate`, products: c.products, checkedProduct: p.slug })}</div></div></section>
${c.products.length > 1 ? html`<section class="band alt"><div class="wrap"><h2>Other coverings</h2><ul class="cards">${c.products.filter((o) => o.slug !== p.slug).map(productCard)}</ul></div></section>` : ''}`,
  };
}

export function tenantAreaPage(c: SiteContent, l: Location, a: WebsiteArea): PageBody {
  const phone = a.phone ?? c.site.phone;
  return {
    title: `Window coverings in ${l.city}`,
    description: `Custom shades, blinds and shutters in ${l.city}, with a free in-home estimate.`,
    body: html`<section class="hero"><div class="wrap"><p class="kicker">Serving ${l.city} and nearby</p>
<h1>Shades, blinds and shutters in ${l.city}</h1><p class="lead">We measure, supply and install custom window coverings across ${l.city}.</p>
${phone ? html`<p class="cta-row"><a class="btn" href="tel:${phone.replace(/[^+0-9]/g, '')}">Call ${phone}</a></p>` : ''}</div></section>
<section class="band"><div class="wrap split"><div>${a.address ? html`<h2>Visit us</h2><p>${a.address}</p>` : ''}
${a.zip_codes.length ? html`<h2>ZIP codes we serve</h2><ul class="pills">${a.zip_codes.map((z) => html`<li>${z}</li>`)}</ul>` : ''}
${c.products.length ? html`<h2>What we install in ${l.city}</h2><ul class="ticks">${c.products.map((p) => html`<li><a href="/products/${p.slug}">${p.name}</a></li>`)}</ul>` : ''}</div>
<div id="estimate">${estimateForm({ id: 'estimate-form', formSource: formSource.localInline(l.slug), heading: `Free estimate in ${l.city}`, products: c.products })}</div></div></section>`,
  };
}

/**
 * The tenant's own long text, as an article ending in the `.article-footer` the L2 popup's footer
 * trigger watches (the platform's blog posts carry it; a tenant site has no blog).
 */
export function tenantAboutPage(c: SiteContent): PageBody {
  return {
    title: c.site.about.title,
    description: c.site.about.lead,
    body: html`<section class="hero"><div class="wrap"><h1>${c.site.about.title}</h1><p class="lead">${c.site.about.lead}</p></div></section>
<article class="band"><div class="wrap prose">${raw(c.aboutHtml)}
<footer class="article-footer"><p>Want advice for your own windows? We visit with samples at no cost.</p>
<p><a class="btn btn-primary" href="/gallery">See our recent work</a></p></footer></div></article>`,
  };
}

const galleryItem = (g: WebsiteGalleryItem): Safe =>
  html`<li class="card"><img class="art" src="${mediaUrl(g.image_key)}" width="${g.width}" height="${g.height}" alt="${g.alt}" loading="lazy">${g.caption ? html`<p>${g.caption}</p>` : ''}</li>`;

export function tenantGalleryPage(c: SiteContent, items: WebsiteGalleryItem[]): PageBody {
  const g = c.site.gallery;
  return {
    title: g.title,
    description: g.lead,
    body: html`<section class="hero"><div class="wrap"><h1>${g.title}</h1><p class="lead">${g.lead}</p></div></section>
<section class="band"><div class="wrap">${items.length ? html`<ul class="cards gallery">${items.map(galleryItem)}</ul>` : html`<p>Photos of our recent work are coming soon.</p>`}</div></section>
<section class="band alt"><div class="wrap narrow" id="estimate">${estimateForm({ id: 'estimate-form', formSource: formSource.galleryInline, heading: 'Like what you see? Get a free estimate', products: c.products })}</div></section>`,
  };
}

const xml = (s: string): string =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[ch]!);

export function sitemapXml(s: WebsiteSnapshot, paths: string[]): string {
  const urls = paths.map((p) => `<url><loc>${xml(`https://${s.primary_host}${p}`)}</loc></url>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

export const robotsTxt = (s: WebsiteSnapshot): string =>
  `User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: https://${s.primary_host}/sitemap.xml\n`;
