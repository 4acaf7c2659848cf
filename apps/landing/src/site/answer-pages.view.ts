/**
 * Pages that answer a visitor rather than show content: the HTML 404 (with the site's navigation
 * and a way to an estimate) and the page a form lands on when it was posted without JavaScript.
 */
import { NO_SCRIPT_PAGE } from '../client/messages.js';
import type { SiteContent } from './content.loader.js';
import { html, type Safe } from './html.js';
import type { PageBody } from './pages.view.js';

/** Fills `{phone}` and `{hours}` in catalogue copy, the phone as a tel: link. */
function withContact(c: SiteContent, text: string): Safe {
  const [before, after = ''] = text.split('{phone}');
  return html`${before}<a href="tel:${c.site.phoneHref}">${c.site.phone}</a>${c.site.hours ? after.replace('{hours}', c.site.hours) : after.replace(', {hours}', '')}`;
}

/** A tenant's site may list no phone yet, or have no helpdesk: those links are left out. */
const callButton = (c: SiteContent): Safe | '' =>
  c.site.phone ? html` <a class="btn" href="tel:${c.site.phoneHref}">Call ${c.site.phone}</a>` : '';
const hasHelpdesk = (c: SiteContent): boolean => c.helpdeskEnabled !== false;

function estimateRoutes(c: SiteContent): Safe {
  // A site without service areas books from its home page's form.
  const book = c.locations.length ? '/#areas' : '/#estimate';
  return html`<h2>Book a free in-home estimate</h2>
<p class="cta-row"><a class="btn btn-primary" href="${book}">${c.locations.length ? 'Choose your area' : 'Request an estimate'}</a>${callButton(c)}</p>
<h2>Our window coverings</h2><ul class="pills">${c.products.map((p) => html`<li><a href="/products/${p.slug}">${p.name}</a></li>`)}</ul>`;
}

export function notFoundPage(c: SiteContent, suggestion?: { path: string; title: string }): PageBody {
  return {
    title: 'Page not found',
    description: 'The page you asked for is not on our site.',
    body: html`<section class="hero"><div class="wrap narrow"><p class="kicker">Error 404</p><h1>We could not find that page</h1>
<p class="lead">The address may be mistyped, or the page has moved.</p>
${suggestion ? html`<p class="suggest">Did you mean <a href="${suggestion.path}">${suggestion.title}</a>?</p>` : ''}</div></section>
<section class="band"><div class="wrap narrow">${estimateRoutes(c)}<p><a href="/">Go to the home page</a>${hasHelpdesk(c) ? html` or <a href="/helpdesk">ask our helpdesk</a>` : ''}.</p></div></section>`,
  };
}

export function noScriptPage(c: SiteContent): PageBody {
  const p = NO_SCRIPT_PAGE;
  return {
    title: p.title,
    description: p.lead,
    body: html`<section class="hero"><div class="wrap narrow"><h1>${p.title}</h1><p class="lead">${p.lead}</p>
${c.site.phone ? html`<p class="call">${withContact(c, p.call)}</p>` : ''}</div></section>
<section class="band"><div class="wrap narrow"><p>${p.other}</p>
<p class="cta-row">${callButton(c)}${hasHelpdesk(c) ? html` <a class="btn" href="/helpdesk">Go to the helpdesk</a>` : ''}</p>
${c.site.email ? html`<p>You can also email us at <a href="mailto:${c.site.email}">${c.site.email}</a>.</p>` : ''}
<p><a href="/">Back to the home page</a></p></div></section>`,
  };
}

const distance = (a: string, b: string): number => {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
};

/** The page a mistyped address most likely meant (a few letters off), if any. */
export function closestPage<P extends { path: string }>(pages: P[], requested: string): P | undefined {
  const want = requested.toLowerCase().replace(/\/+$/, '').slice(0, 120) || '/';
  let best: P | undefined;
  let bestD = Math.min(3, Math.floor(want.length / 4));
  for (const p of pages) {
    const d = distance(want, p.path);
    if (d <= bestD && (!best || d < distance(want, best.path))) {
      best = p;
      bestD = d;
    }
  }
  return best;
}
