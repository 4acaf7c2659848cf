/** LP v2 pages (three forms and a CTA popup) and the LP v1/ads pages (one form, no form_source). */
import type { LpLegacy, LpV2, SiteContent } from './content.loader.js';
import { formSource } from './form-sources.js';
import { estimateForm } from './forms.view.js';
import { html, type Safe } from './html.js';
import type { PageBody } from './pages.view.js';

const TESTIMONIALS = [
  ['The installer had every shade up and working in under three hours, and the fit is perfect.', 'Maria G., Lakewood'],
  [
    'They measured twice, the quote matched the invoice, and the shutters look like they were built with the house.',
    'Tom and Priya R., Denver',
  ],
];

/** The CTA is a link to the hero form; the client turns it into a popup opener when it may. */
const cta = (label: string): Safe => html`<a class="btn btn-primary" href="#hero-form" data-open-popup>${label}</a>`;

export function lpV2Page(c: SiteContent, lp: LpV2): PageBody {
  const product = c.products.find((p) => p.slug === lp.product) ?? c.products[0]!;
  return {
    title: lp.title,
    description: lp.lead,
    body: html`<section class="hero lp-hero"><div class="wrap hero-grid"><div>
<p class="kicker">${lp.offer}</p><h1>${lp.title}</h1><p class="lead">${lp.lead}</p>
<ul class="ticks">${lp.points.map((p) => html`<li>${p}</li>`)}</ul></div>
<div id="hero-form">${estimateForm({ id: 'hero', formSource: formSource.lp(lp.slug, 'hero'), heading: 'Claim your offer', variant: 'compact' })}</div></div></section>
<section class="band"><div class="wrap split"><div><h2>${product.name}, made for your windows</h2><p>${product.intro}</p>
<ul class="ticks">${product.features.map((f) => html`<li>${f}</li>`)}</ul><p class="cta-row">${cta('Book my free measure')}</p></div>
<img class="art" src="/img/${product.art}.svg" width="480" height="360" alt="Illustration of ${product.name.toLowerCase()}" loading="lazy"></div></section>
<section class="band alt"><div class="wrap"><h2>What our customers say</h2><ul class="quotes">${TESTIMONIALS.map(([q, who]) => html`<li><blockquote><p>${q}</p></blockquote><p class="meta">${who}</p></li>`)}</ul>
<p class="cta-row">${cta('Get my free quote')}</p></div></section>
<section class="band"><div class="wrap narrow">${estimateForm({ id: 'second-cta', formSource: formSource.lp(lp.slug, 'second-cta'), heading: 'Prefer a call back? Leave your details', variant: 'compact' })}</div></section>
<section class="bottom-bar"><div class="wrap">${estimateForm({ id: 'bottom-bar', formSource: formSource.lp(lp.slug, 'bottom-bar'), heading: `${lp.offer}: book today`, variant: 'compact', submitLabel: 'Book now' })}</div></section>`,
  };
}

export function lpLegacyPage(c: SiteContent, lp: LpLegacy): PageBody {
  return {
    title: lp.title,
    description: lp.lead,
    body: html`<section class="hero lp-hero"><div class="wrap hero-grid"><div><h1>${lp.title}</h1><p class="lead">${lp.lead}</p>
<ul class="ticks">${c.site.home.promises.map((p) => html`<li>${p}</li>`)}</ul></div>
<div id="estimate">${estimateForm({ id: 'estimate-form', heading: 'Request your free estimate', products: c.products })}</div></div></section>`,
  };
}
