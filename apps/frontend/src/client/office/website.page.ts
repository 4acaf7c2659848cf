/**
 * /office/settings/website: the tenant's public website (GET /api/tenants/{id}/website). The page
 * keeps a working copy of the draft: editing FAQ entries or the gallery changes it and redraws (what
 * was typed is read back first), Save draft sends it whole (PUT …/draft), Publish saves then publishes,
 * Roll back publishes an earlier version again; Preview saves, then opens the draft as the site shows it
 * (a short-lived link to the tenant's host, POST …/preview). A gallery image is sent as soon as it is chosen
 * (POST …/images) and joins the working copy; its alt text is required when the draft is saved.
 */
import type { WebsiteContent, WebsiteEditorView, WebsitePreviewLink } from '@platform/contracts/website.js';

import { call, postJson } from '../field/api.js';
import { getSession } from '../field/store.js';
import { $, h } from '../shared/dom.js';
import { clearFieldErrors, fieldProblems, say, showFieldErrors } from './office-common.js';
import type { OfficePage } from './office-page.js';
import { refusal, sendForm, settingsHead, tenantApi } from './settings-common.js';
import { websiteHtml } from './website.view.js';

let view: WebsiteEditorView | undefined;
let working: WebsiteContent | undefined;

const api = (rest = '') => tenantApi(`/website${rest}`);
const val = (id: string) => $<HTMLInputElement | HTMLTextAreaElement>(`#${id}`)?.value ?? '';

/** The form's values read back into the working copy (nothing trimmed: the API says what is wrong). */
function collect(): WebsiteContent {
  const c = working!;
  const checked = (sel: string, attr: string) =>
    Array.from(document.querySelectorAll<HTMLInputElement>(sel))
      .filter((i) => i.checked)
      .map((i) => i.getAttribute(attr)!);
  const products = checked('input[data-product]', 'data-product');
  const areas = checked('input[data-area]', 'data-area').filter(Boolean);
  const allProducts = products.length === view!.catalog.products.length;
  working = {
    ...c,
    hero: { title: val('hero-title'), lead: val('hero-lead'), cta: val('hero-cta') },
    tagline: val('tagline'),
    hours: val('hours'),
    about: { title: val('about-title'), body: val('about-body') },
    faq: c.faq.map((_, i) => ({ q: val(`faq-q-${i}`), a: val(`faq-a-${i}`) })),
    gallery: c.gallery.map((g, i) => ({ ...g, alt: val(`gal-alt-${i}`), caption: val(`gal-cap-${i}`) })),
    // Every product ticked is "all", which also shows products the tenant adds later.
    products_shown: allProducts ? [] : products,
    show_prices: $<HTMLInputElement>('#show-prices')?.checked ?? c.show_prices,
    areas_shown: areas,
  };
  return working;
}

async function draw(app: HTMLElement, msg = '', kind: 'ok' | 'err' | '' = ''): Promise<void> {
  const tenantId = (await getSession())!.tenant.id;
  app.innerHTML = `${settingsHead('Website')}<p id="office-msg" role="status" class="${kind}">${h(msg)}</p>
${websiteHtml(view!, working!, tenantId)}`;
}

async function load(app: HTMLElement, msg = '', kind: 'ok' | 'err' | '' = ''): Promise<void> {
  view = await call<WebsiteEditorView>(await api());
  working = structuredClone(view.draft);
  await draw(app, msg, kind);
}

const put = async (content: WebsiteContent) =>
  (view = await call<WebsiteEditorView>(await api('/draft'), {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(content),
  }));

async function upload(input: HTMLInputElement, app: HTMLElement): Promise<void> {
  const file = input.files?.[0];
  if (!file) return;
  collect();
  clearFieldErrors(input.form!);
  say('Sending the image…');
  try {
    const img = await call<{ image_key: string; width: number; height: number }>(await api('/images'), {
      method: 'POST',
      headers: { 'content-type': file.type || 'application/octet-stream' },
      body: file,
    });
    working!.gallery.push({ ...img, alt: '', caption: '' });
  } catch (e) {
    if (!fieldProblems(e).length) return say(refusal(e), 'office-msg', 'err');
    showFieldErrors(input.form!, fieldProblems(e));
    return say('The image was not added: see the message under it.', 'office-msg', 'err');
  }
  await draw(app, 'Image added: describe it, then save the draft.', 'ok');
  $<HTMLInputElement>(`#gal-alt-${working!.gallery.length - 1}`)?.focus();
}

export const websitePage: OfficePage = {
  async show(app, msg = '') {
    await load(app, msg);
  },
  async submit(form, app) {
    if (form.id !== 'website-form') return;
    const content = collect();
    if (await sendForm(form, async () => void (await put(content)))) await draw(app, 'Draft saved.', 'ok');
  },
  async change(el, app) {
    if (el.id === 'gallery-file') await upload(el as HTMLInputElement, app);
  },
  async click(b, app) {
    const d = b.dataset;
    const at = (x: string | undefined) => Number(x);
    try {
      if (d.faqAdd || d.faqUp || d.faqDown || d.faqRemove || d.galleryRemove) {
        const c = collect();
        if (d.faqAdd) c.faq.push({ q: '', a: '' });
        const move = (i: number, j: number) => ([c.faq[i], c.faq[j]] = [c.faq[j]!, c.faq[i]!]);
        if (d.faqUp) move(at(d.faqUp), at(d.faqUp) - 1);
        if (d.faqDown) move(at(d.faqDown), at(d.faqDown) + 1);
        if (d.faqRemove) c.faq.splice(at(d.faqRemove), 1);
        if (d.galleryRemove) c.gallery.splice(at(d.galleryRemove), 1);
        await draw(app, 'Changed in the draft: save or publish to keep it.');
        const focus = d.faqAdd ? `#faq-q-${c.faq.length - 1}` : d.faqUp || d.faqDown ? '#faq' : '#website-form h2';
        return $<HTMLElement>(focus)?.focus();
      }
      if (d.publish) {
        const form = $<HTMLFormElement>('#website-form')!;
        const content = collect();
        if (!(await sendForm(form, async () => void (await put(content))))) return;
        view = await postJson<WebsiteEditorView>(await api('/publish'), {});
        return await load(app, `Published: version ${view.published?.version} is live.`, 'ok');
      }
      if (d.preview) {
        const form = $<HTMLFormElement>('#website-form')!;
        const content = collect();
        if (!(await sendForm(form, async () => void (await put(content))))) return;
        const link = await postJson<WebsitePreviewLink>(await api('/preview'), {});
        await draw(app, 'Draft saved. The preview opens in a new tab: ');
        // The link stays on the page too, for a browser that blocked the new tab.
        $<HTMLElement>('#office-msg')!.insertAdjacentHTML(
          'beforeend',
          `<a id="preview-link" href="${h(link.url)}" target="_blank" rel="noopener">open the preview<span class="visually-hidden"> (opens a new tab)</span></a>`,
        );
        window.open(link.url, '_blank', 'noopener');
        return;
      }
      if (d.rollback) {
        view = await postJson<WebsiteEditorView>(await api('/rollback'), { version: at(d.rollback) });
        return await load(app, `Version ${d.rollback} is live again (as version ${view.published?.version}).`, 'ok');
      }
    } catch (e) {
      say(refusal(e), 'office-msg', 'err');
    }
  },
};
