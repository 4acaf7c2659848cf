/** Page bodies of the main site. Copy comes from content/; this file only arranges it. */
import type { BlogPost, Location, Product, SiteContent } from './content.loader.js';
import { formSource } from './form-sources.js';
import { estimateForm, helpdeskForm } from './forms.view.js';
import { html, raw, type Safe } from './html.js';

export interface PageBody {
  title: string;
  description: string;
  body: Safe;
}

const art = (name: string, alt: string, w = 320, h = 240, eager = false): Safe =>
  html`<img class="art" src="/img/${name}.svg" width="${w}" height="${h}" alt="${alt}"${eager ? html` fetchpriority="high"` : html` loading="lazy"`}>`;

const productCard = (p: Product): Safe => html`<li class="card">
${art(p.art, '')}<h3><a href="/products/${p.slug}">${p.name}</a></h3><p>${p.short}</p></li>`;

export function homePage(c: SiteContent): PageBody {
  const h = c.site.home;
  return {
    title: 'Home',
    description: h.lead,
    body: html`<section class="hero"><div class="wrap hero-grid"><div>
<h1>${h.title}</h1><p class="lead">${h.lead}</p>
<p class="cta-row"><a class="btn btn-primary" href="#areas">${h.cta}</a> <a class="btn" href="tel:${c.site.phoneHref}">Call ${c.site.phone}</a></p>
</div>${art('hero', 'A living room window dressed with a half-raised roller shade', 480, 360, true)}</div></section>
<section class="band" id="products"><div class="wrap"><h2>Our window coverings</h2><ul class="cards">${c.products.map(productCard)}</ul></div></section>
<section class="band alt"><div class="wrap"><h2>How it works</h2><ol class="steps">${h.steps.map((s) => html`<li><h3>${s.title}</h3><p>${s.text}</p></li>`)}</ol></div></section>
<section class="band"><div class="wrap"><h2>Our promises</h2><ul class="ticks">${h.promises.map((p) => html`<li>${p}</li>`)}</ul>
<h2 id="areas">Where we work</h2><p>Choose your area to book a free visit with our local team.</p><ul class="pills">${c.locations.map((l) => html`<li><a href="/areas/${l.slug}">${l.city}</a></li>`)}</ul></div></section>`,
  };
}

export function productPage(c: SiteContent, p: Product): PageBody {
  return {
    title: `Custom ${p.name.toLowerCase()}`,
    description: p.short,
    body: html`<section class="hero"><div class="wrap hero-grid"><div>
<p class="kicker">Custom made, professionally installed</p><h1>${p.name}</h1><p class="lead">${p.intro}</p><p class="price">${p.priceFrom}</p>
<p class="cta-row"><a class="btn btn-primary" href="#estimate">Get a free estimate</a></p></div>
${art(p.art, `Illustration of ${p.name.toLowerCase()} on a window`, 480, 360, true)}</div></section>
<section class="band"><div class="wrap split"><div><h2>What you can choose</h2><ul class="ticks">${p.features.map((f) => html`<li>${f}</li>`)}</ul>
<h2>Why buy from us</h2><ul class="ticks">${c.site.home.promises.map((f) => html`<li>${f}</li>`)}</ul>
<h2>Questions we hear</h2>${c.site.faq.slice(0, 3).map((q) => html`<h3>${q.q}</h3><p>${q.a}</p>`)}</div>
<div id="estimate">${estimateForm({ id: 'estimate-form', formSource: formSource.productInline(p.slug), heading: `Free ${p.name.toLowerCase()} estimate`, products: c.products, checkedProduct: p.slug })}</div></div></section>
<section class="band alt"><div class="wrap"><h2>Other coverings</h2><ul class="cards">${c.products.filter((o) => o.slug !== p.slug).map(productCard)}</ul></div></section>`,
  };
}

export function localPage(c: SiteContent, l: Location): PageBody {
  return {
    title: `Window coverings in ${l.city}, CO`,
    description: `Custom shades, blinds and shutters for ${l.city} homes, with a free in-home estimate.`,
    body: html`<section class="hero"><div class="wrap"><p class="kicker">Serving ${l.city} and nearby</p>
<h1>Shades, blinds and shutters in ${l.city}</h1><p class="lead">Our designers visit ${l.city} homes every week with samples, measure every window and install with our own crew.</p></div></section>
<section class="band"><div class="wrap split"><div><h2>Local knowledge</h2><p>${l.note}</p>
<h2>Neighbourhoods we visit</h2><ul class="pills">${l.areas.map((a) => html`<li>${a}</li>`)}</ul>
<h2>What we install in ${l.city}</h2><ul class="ticks">${c.products.map((p) => html`<li><a href="/products/${p.slug}">${p.name}</a>: ${p.short}</li>`)}</ul>
<h2>How a visit works</h2><ol class="steps compact">${c.site.home.steps.map((s) => html`<li><h3>${s.title}</h3><p>${s.text}</p></li>`)}</ol></div>
<div id="estimate">${estimateForm({ id: 'estimate-form', formSource: formSource.localInline(l.slug), heading: `Free estimate in ${l.city}`, products: c.products })}</div></div></section>`,
  };
}

export function aboutPage(c: SiteContent): PageBody {
  return {
    title: c.site.about.title,
    description: c.site.about.lead,
    body: html`<section class="hero"><div class="wrap"><h1>${c.site.about.title}</h1><p class="lead">${c.site.about.lead}</p></div></section>
<section class="band"><div class="wrap prose">${raw(c.aboutHtml)}<p><a class="btn btn-primary" href="/gallery">See our recent work</a></p></div></section>`,
  };
}

export function galleryPage(c: SiteContent): PageBody {
  const g = c.site.gallery;
  const name = (slug: string): Product => c.products.find((p) => p.slug === slug) ?? c.products[0]!;
  return {
    title: g.title,
    description: g.lead,
    body: html`<section class="hero"><div class="wrap"><h1>${g.title}</h1><p class="lead">${g.lead}</p></div></section>
<section class="band"><div class="wrap"><ul class="cards gallery">${g.items.map(
      (i) => html`<li class="card">${art(name(i.product).art, `${name(i.product).name} in a ${i.title.toLowerCase()}`)}
<h2>${i.title}</h2><p>${i.text}</p><p><a href="/products/${i.product}">About ${name(i.product).name.toLowerCase()}</a></p></li>`,
    )}</ul></div></section>
<section class="band alt"><div class="wrap narrow" id="estimate">${estimateForm({ id: 'estimate-form', formSource: formSource.galleryInline, heading: 'Like what you see? Get a free estimate', products: c.products })}</div></section>`,
  };
}

export function faqPage(c: SiteContent): PageBody {
  return {
    title: 'Frequently asked questions',
    description: 'Answers about estimates, lead times, warranties, motorization and installation.',
    body: html`<section class="hero"><div class="wrap"><h1>Frequently asked questions</h1><p class="lead">Straight answers about estimates, timing, warranties and installation.</p></div></section>
<section class="band"><div class="wrap narrow faq">${c.site.faq.map((q) => html`<details><summary>${q.q}</summary><p>${q.a}</p></details>`)}</div></section>
<section class="band alt"><div class="wrap narrow" id="estimate">${estimateForm({ id: 'estimate-form', formSource: formSource.faqInline, heading: 'Still have a question? Ask at your free estimate', products: c.products })}</div></section>`,
  };
}

export function helpdeskPage(c: SiteContent): PageBody {
  const h = c.site.helpdesk;
  return {
    title: h.title,
    description: h.lead,
    body: html`<section class="hero"><div class="wrap"><h1>${h.title}</h1><p class="lead">${h.lead}</p>
${c.site.phone ? html`<p>Urgent? Call <a href="tel:${c.site.phoneHref}">${c.site.phone}</a>${c.site.hours ? `, ${c.site.hours}` : ''}.</p>` : ''}</div></section>
<section class="band"><div class="wrap narrow">${helpdeskForm(h.subjects)}</div></section>`,
  };
}

const postDate = (d: string): string =>
  new Date(`${d}T12:00:00Z`).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });

export function blogIndexPage(c: SiteContent): PageBody {
  return {
    title: 'Blog',
    description: 'Advice on choosing, measuring and living with shades, blinds and shutters.',
    body: html`<section class="hero"><div class="wrap"><h1>Window covering advice</h1><p class="lead">Practical guides from our designers and installers.</p></div></section>
<section class="band"><div class="wrap narrow"><ul class="posts">${c.posts.map(
      (p) => html`<li><h2><a href="/blog/${p.slug}">${p.title}</a></h2>
<p class="meta"><time datetime="${p.date}">${postDate(p.date)}</time></p><p>${p.summary}</p></li>`,
    )}</ul></div></section>`,
  };
}

export function blogPostPage(c: SiteContent, p: BlogPost): PageBody {
  const others = c.posts.filter((o) => o.slug !== p.slug);
  return {
    title: p.title,
    description: p.summary,
    body: html`<article class="band"><div class="wrap narrow prose"><p class="meta"><a href="/blog">Blog</a> &middot; <time datetime="${p.date}">${postDate(p.date)}</time></p>
<h1>${p.title}</h1><p class="lead">${p.summary}</p>${raw(p.html)}
<footer class="article-footer"><p>Want advice for your own windows? A designer can visit with samples at no cost.</p>
<p><a class="btn" href="/blog">&larr; Back to all articles</a></p></footer></div></article>
<section class="band alt"><div class="wrap narrow"><h2>More articles</h2><ul class="posts">${others.map((o) => html`<li><h3><a href="/blog/${o.slug}">${o.title}</a></h3><p>${o.summary}</p></li>`)}</ul></div></section>`,
  };
}
