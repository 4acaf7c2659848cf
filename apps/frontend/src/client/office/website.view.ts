/**
 * Settings → Website as HTML (docs/website.md, "Editing and publishing"): one form over the draft
 * (hero, tagline, hours, about, FAQ entries with move and remove, the gallery with alt text and
 * captions, which products and areas show, prices), the live version and earlier ones with Roll back.
 * The Preview button waits, hidden, for the landing's rendering of a draft (docs/website.md).
 * Every field carries `data-field` with the API's name for it, so a 422 lands beside the field.
 */
import type { WebsiteContent, WebsiteEditorView } from '@platform/contracts/website.js';
import { WEBSITE_LIMITS } from '@platform/contracts/website.js';

import { h } from '../shared/dom.js';
import { formatMoney } from '../shared/money.js';
import { errSlot } from './office-common.js';
import { when } from './settings-common.js';

const S = WEBSITE_LIMITS.shortText;
const L = WEBSITE_LIMITS.longText;

const input = (id: string, field: string, label: string, value: string, hint = '') =>
  `<label for="${id}">${label}${hint ? ` <span class="muted">${hint}</span>` : ''}</label><input id="${id}" data-field="${h(field)}" aria-describedby="${id}-err" maxlength="${S}" value="${h(value)}">${errSlot(id, field)}`;
const area = (id: string, field: string, label: string, value: string, rows = 4) =>
  `<label for="${id}">${label}</label><textarea id="${id}" data-field="${h(field)}" aria-describedby="${id}-err" maxlength="${L}" rows="${rows}">${h(value)}</textarea>${errSlot(id, field)}`;
const small = (data: string, label: string, hidden: string, disabled = false) =>
  `<button class="btn secondary" type="button" ${data}${disabled ? ' disabled' : ''}>${label}<span class="visually-hidden"> ${h(hidden)}</span></button>`;

function faqHtml(c: WebsiteContent): string {
  const items = c.faq
    .map((f, i) => {
      const n = `question ${i + 1}`;
      return `<li class="card" data-faq-item="${i}"><h3 style="margin-top:0">Question ${i + 1}</h3>
${input(`faq-q-${i}`, `faq.${i}.q`, 'Question', f.q)}${area(`faq-a-${i}`, `faq.${i}.a`, 'Answer', f.a, 3)}
<div class="row" style="margin-top:.5rem">${small(`data-faq-up="${i}"`, 'Move up', n, i === 0)}${small(`data-faq-down="${i}"`, 'Move down', n, i === c.faq.length - 1)}${small(`data-faq-remove="${i}"`, 'Remove', n)}</div></li>`;
    })
    .join('');
  const full = c.faq.length >= WEBSITE_LIMITS.faqEntries;
  return `<fieldset id="faq"><legend>Questions and answers</legend>${items ? `<ol class="plain">${items}</ol>` : '<p class="muted">No questions yet.</p>'}
<span class="err" data-err-for="faq"></span>
<button class="btn secondary" type="button" data-faq-add="1"${full ? ' disabled' : ''}>Add a question</button></fieldset>`;
}

function galleryHtml(c: WebsiteContent, tenantId: string): string {
  const items = c.gallery
    .map((g, i) => {
      const name = g.image_key.split('/').pop() ?? '';
      const src = `/api/control/api/website-images/${encodeURIComponent(tenantId)}/${encodeURIComponent(name)}`;
      return `<li class="card" data-gallery-item="${i}"><img src="${h(src)}" alt="" width="${g.width}" height="${g.height}" style="max-width:100%;height:auto;max-height:160px;width:auto">
${input(`gal-alt-${i}`, `gallery.${i}.alt`, 'Describe the image (for people who cannot see it)', g.alt)}
${input(`gal-cap-${i}`, `gallery.${i}.caption`, 'Caption', g.caption, '(optional)')}
<div class="row" style="margin-top:.5rem">${small(`data-gallery-remove="${i}"`, 'Remove', `image ${i + 1}`)}</div></li>`;
    })
    .join('');
  const full = c.gallery.length >= WEBSITE_LIMITS.galleryItems;
  return `<fieldset id="gallery"><legend>Gallery</legend>${items ? `<ul class="plain">${items}</ul>` : '<p class="muted">No images yet.</p>'}
<label for="gallery-file">Add an image (PNG, JPEG or WebP, at most 5 MB)</label><input id="gallery-file" type="file" accept="image/png,image/jpeg,image/webp" data-field="file" aria-describedby="gallery-file-err"${full ? ' disabled' : ''}>${errSlot('gallery-file', 'file')}</fieldset>`;
}

function catalogHtml(v: WebsiteEditorView, c: WebsiteContent): string {
  const { products, areas } = v.catalog;
  const shownP = (code: string) => !c.products_shown.length || c.products_shown.includes(code);
  const shownA = (id: string | undefined, zips: number) =>
    c.areas_shown.length ? !!id && c.areas_shown.includes(id) : zips > 0;
  const p = products
    .map(
      (x) =>
        `<label class="check"><input type="checkbox" data-product="${h(x.code)}"${shownP(x.code) ? ' checked' : ''}> ${h(x.name)}${x.from_minor === null ? '' : ` <span class="muted">from ${h(formatMoney(x.from_minor, x.currency))}</span>`}</label>`,
    )
    .join('');
  const a = areas
    .map(
      (x) =>
        `<label class="check"><input type="checkbox" data-area="${h(x.branch_id ?? '')}"${shownA(x.branch_id, x.zip_codes.length) ? ' checked' : ''}> ${h(x.name)} <span class="muted">${x.zip_codes.length} ZIP codes</span></label>`,
    )
    .join('');
  return `<fieldset><legend>Products on the site</legend>${p || '<p class="muted">Your price grids give the products.</p>'}
<label class="check"><input type="checkbox" id="show-prices" data-field="show_prices"${c.show_prices ? ' checked' : ''}> Show “from” prices</label></fieldset>
<fieldset><legend>Service areas on the site</legend>${a || '<p class="muted">Your branches give the service areas (Settings → Branches).</p>'}</fieldset>`;
}

function versionsHtml(v: WebsiteEditorView): string {
  const live = v.published
    ? `<p id="site-live">Live: version ${v.published.version}, published ${h(when(v.published.published_at))}.</p>`
    : '<p id="site-live">Nothing published yet: the site shows sensible defaults under your company’s name.</p>';
  const rows = v.history
    .map(
      (x) =>
        `<li class="row" style="justify-content:space-between;align-items:center"><span>Version ${x.version}, ${h(when(x.published_at))}</span>${small(`data-rollback="${x.version}"`, 'Roll back', `to version ${x.version}`)}</li>`,
    )
    .join('');
  return `<section class="card" aria-labelledby="versions-h"><h2 id="versions-h" style="margin-top:0">Versions</h2>${live}
${rows ? `<ul class="plain" id="site-history">${rows}</ul>` : '<p class="muted">Earlier versions appear here after a second publish.</p>'}</section>`;
}

export function websiteHtml(v: WebsiteEditorView, c: WebsiteContent, tenantId: string): string {
  const site = v.site_url
    ? `<a id="view-site" href="${h(v.site_url)}" target="_blank" rel="noopener">View site<span class="visually-hidden"> (opens a new tab)</span></a>`
    : '';
  return `<p>Your public website: the text and images below, your company details (Settings → Company), products from your price grids and service areas from your branches. ${site}</p>
${versionsHtml(v)}
<form id="website-form" class="card" novalidate><h2 style="margin-top:0">Draft</h2>
<fieldset><legend>Home page</legend>
${input('hero-title', 'hero.title', 'Headline', c.hero.title)}${area('hero-lead', 'hero.lead', 'Introduction', c.hero.lead, 3)}
${input('hero-cta', 'hero.cta', 'Button text', c.hero.cta)}${input('tagline', 'tagline', 'Tagline', c.tagline)}
${input('hours', 'hours', 'Opening hours', c.hours, '(one line; empty hides it)')}</fieldset>
<fieldset><legend>About page</legend>${input('about-title', 'about.title', 'Title', c.about.title)}${area('about-body', 'about.body', 'Text (a blank line starts a paragraph)', c.about.body, 6)}</fieldset>
${faqHtml(c)}${galleryHtml(c, tenantId)}${catalogHtml(v, c)}
<div class="row" style="margin-top:.75rem"><button class="btn secondary" type="submit">Save draft</button><button class="btn" type="button" data-publish="1">Publish</button>
<span id="website-preview"><button class="btn secondary" type="button" data-preview="1">Preview</button></span></div></form>`;
}
