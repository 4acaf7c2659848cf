/** Server-rendered forms: estimate (inline, LP v2, popup) and helpdesk. The client script posts them as JSON. */
import { ATTRIBUTION_FIELDS } from '@platform/contracts/attribution-fields.js';

import type { Product } from './content.loader.js';
import { html, raw, type Safe } from './html.js';

/** Where a form posted without JavaScript lands: no bot check can run, so nothing is sent (no-script.view.ts). */
export const NO_SCRIPT_PATH = '/request-not-sent';
/** Replaced by the layout with the notice and the site's phone and email (a form does not know them). */
export const NO_SCRIPT_SLOT = '<!--no-script-notice-->';

/** How every form's submit button starts: `formsOff` finds them by it. */
const SUBMIT = '<button type="submit" class="btn btn-primary"';
/** Said above each switched-off submit button of a draft preview. */
export const PREVIEW_FORM_NOTE = 'This is a preview: the form is switched off and sends nothing.';

/** A draft preview's page: every submit disabled (nothing can post for real), with a note saying why. */
export function formsOff(page: string): string {
  return page.replaceAll(SUBMIT, `<p class="hint preview-note">${PREVIEW_FORM_NOTE}</p>\n${SUBMIT} disabled`);
}

/** `format` names a client check in src/client/checks.ts (the API checks the same meaning). */
interface FieldOpts {
  id: string;
  name: string;
  label: string;
  type?: string;
  autocomplete?: string;
  required?: boolean;
  inputmode?: string;
  format?: 'email' | 'phone' | 'zip';
}

function field(o: FieldOpts): Safe {
  const fid = `${o.id}-${o.name}`;
  return html`<div class="field" data-field="${o.name}">
<label for="${fid}">${o.label}${o.required ? html` <span aria-hidden="true">*</span>` : ''}</label>
<input id="${fid}" name="${o.name}" type="${o.type ?? 'text'}"${o.autocomplete ? html` autocomplete="${o.autocomplete}"` : ''}${o.inputmode ? html` inputmode="${o.inputmode}"` : ''}${o.format ? html` data-format="${o.format}"` : ''}${o.required ? html` aria-required="true"` : ''}>
<p class="field-error" id="${fid}-error" hidden></p>
</div>`;
}

function textarea(id: string, name: string, label: string, required = false): Safe {
  const fid = `${id}-${name}`;
  return html`<div class="field field-wide" data-field="${name}">
<label for="${fid}">${label}${required ? html` <span aria-hidden="true">*</span>` : ''}</label>
<textarea id="${fid}" name="${name}" rows="3"${required ? html` aria-required="true"` : ''}></textarea>
<p class="field-error" id="${fid}-error" hidden></p>
</div>`;
}

const hiddenAttribution = (): Safe =>
  html`${ATTRIBUTION_FIELDS.map((n) => html`<input type="hidden" name="${n}" value="">`)}`;

export interface EstimateFormOpts {
  /** Unique on the page; prefixes the field ids. */
  id: string;
  /** Omitted on the LP v1 pages: the backend records its default, lp_form_legacy. */
  formSource?: string;
  heading: string;
  variant?: 'full' | 'compact';
  products?: Product[];
  checkedProduct?: string;
  submitLabel?: string;
  headingLevel?: 2 | 3;
}

export function estimateForm(o: EstimateFormOpts): Safe {
  const compact = o.variant === 'compact';
  const h =
    o.headingLevel === 3
      ? html`<h3 id="${o.id}-title">${o.heading}</h3>`
      : html`<h2 id="${o.id}-title">${o.heading}</h2>`;
  return html`<div class="form-card">
${h}
<form class="estimate-form${compact ? ' compact' : ''}" id="${o.id}" method="post" action="${NO_SCRIPT_PATH}" data-endpoint="/api/estimate" data-action="estimate" data-one-of="phone email" aria-labelledby="${o.id}-title" novalidate>
${raw(NO_SCRIPT_SLOT)}
${o.formSource !== undefined ? html`<input type="hidden" name="form_source" value="${o.formSource}">` : ''}
${hiddenAttribution()}
<div class="fields">
${field({ id: o.id, name: 'name', label: 'Full name', autocomplete: 'name', required: true })}
${field({ id: o.id, name: 'phone', label: 'Phone', type: 'tel', autocomplete: 'tel', format: 'phone' })}
${field({ id: o.id, name: 'email', label: 'Email', type: 'email', autocomplete: 'email', format: 'email' })}
${field({ id: o.id, name: 'zip', label: 'ZIP code', autocomplete: 'postal-code', inputmode: 'numeric', format: 'zip' })}
</div>
${!compact && o.products ? productChoices(o.id, o.products, o.checkedProduct) : ''}
${!compact ? textarea(o.id, 'message', 'Anything we should know? (optional)') : ''}
<p class="hint">* Your name, plus a phone number or an email, so we can reach you.</p>
<div class="form-alert" role="alert" hidden></div>
${raw(SUBMIT)}>${o.submitLabel ?? 'Request my free estimate'}</button>
</form>
<div class="form-success" role="status" tabindex="-1" hidden><p><strong>Thank you!</strong> We have your request and will call you within one business day to book your visit.</p></div>
</div>`;
}

function productChoices(id: string, products: Product[], checked?: string): Safe {
  // A company that has not priced a product yet asks nothing about products (an empty question reads as a fault).
  if (!products.length) return html``;
  return html`<fieldset class="field-wide choices" data-field="products"><legend>What are you interested in?</legend>
${products.map((p) => html`<label class="choice"><input type="checkbox" name="products" value="${p.slug}"${p.slug === checked ? html` checked` : ''}> ${p.name}</label>`)}
<p class="field-error" id="${id}-products-error" hidden></p>
</fieldset>`;
}

export function helpdeskForm(subjects: string[]): Safe {
  const id = 'helpdesk';
  return html`<div class="form-card">
<h2 id="${id}-title">Send us a service request</h2>
<form class="estimate-form" id="${id}" method="post" action="${NO_SCRIPT_PATH}" data-endpoint="/api/helpdesk" data-action="helpdesk" aria-labelledby="${id}-title" novalidate>
${raw(NO_SCRIPT_SLOT)}
<div class="fields">
${field({ id, name: 'name', label: 'Full name', autocomplete: 'name', required: true })}
${field({ id, name: 'email', label: 'Email', type: 'email', autocomplete: 'email', required: true, format: 'email' })}
${field({ id, name: 'phone', label: 'Phone (optional)', type: 'tel', autocomplete: 'tel', format: 'phone' })}
<div class="field" data-field="subject"><label for="${id}-subject">Subject <span aria-hidden="true">*</span></label>
<select id="${id}-subject" name="subject" aria-required="true">${subjects.map((s) => html`<option>${s}</option>`)}</select>
<p class="field-error" id="${id}-subject-error" hidden></p></div>
</div>
${textarea(id, 'message', 'How can we help?', true)}
<div class="form-alert" role="alert" hidden></div>
${raw(SUBMIT)}>Send request</button>
</form>
<div class="form-success" role="status" tabindex="-1" hidden><p><strong>Thank you!</strong> Your request is with our service team. We reply within one business day.</p></div>
</div>`;
}

/**
 * The L2 popup (mode "auto": opened by the triggers of src/client/popup.config.ts) or the LP v2
 * popup (mode "cta": opened by the page's CTA buttons only). `template` is the form_source value
 * before the trigger suffix.
 */
export function popupDialog(template: string, mode: 'auto' | 'cta'): Safe {
  return html`<dialog class="popup" id="estimate-popup" role="dialog" aria-modal="true" aria-labelledby="popup-form-title" data-template="${template}" data-mode="${mode}">
<div class="popup-inner">
<button type="button" class="popup-close" data-close-popup aria-label="Close">&times;</button>
<p class="popup-kicker">Free, no obligation</p>
${estimateForm({ id: 'popup-form', formSource: template, heading: 'Book your free in-home estimate', variant: 'compact', submitLabel: 'Get my free estimate' })}
</div>
</dialog>`;
}
