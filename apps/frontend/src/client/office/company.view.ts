/**
 * The HTML of Settings → Company: the company's details, SEO, time zone and currency, and (when the
 * plan has `custom_branding`) its logo, favicon and colours, each colour with its contrast said in a
 * sentence as it is picked. On a plan without branding those fields are disabled and a sentence names
 * the cheapest plan that unlocks them, linking to Plan and usage.
 */
import {
  type CompanySettings,
  contrastWithWhite,
  MIN_CONTRAST,
  readsOnWhite,
  servesAsBackground,
} from '@platform/contracts/branding.js';

import { h } from '../shared/dom.js';
import { errSlot } from './office-common.js';

export interface CompanyScreen {
  s: CompanySettings;
  /** The plan has custom_branding. */
  branding: boolean;
  /** The cheapest plan's name that has it (said when `branding` is false). */
  unlockedBy: string | undefined;
}

/** What a colour input starts at when none is set: the pages' own defaults. */
export const COLOUR_DEFAULTS = { primary_color: '#1f4e79', secondary_color: '#f4f6f8' } as const;
export type ColourField = keyof typeof COLOUR_DEFAULTS;

/** The sentence beside a colour: how white text (primary) or the pages' text (secondary) reads on it. */
export function contrastSentence(field: ColourField, hex: string): { text: string; ok: boolean } {
  const ratio = contrastWithWhite(hex);
  if (field === 'primary_color')
    return readsOnWhite(hex)
      ? { text: `White text on it reads at ${ratio}:1, enough (at least ${MIN_CONTRAST}:1).`, ok: true }
      : {
          text: `White text on it reads at only ${ratio}:1; it needs at least ${MIN_CONTRAST}:1. Choose a darker colour: this one cannot be saved.`,
          ok: false,
        };
  return servesAsBackground(hex)
    ? { text: 'Light enough for the pages’ background under dark text.', ok: true }
    : {
        text: `Too dark for the pages’ background (white text on it would read at ${ratio}:1): pages will use a neutral light grey instead.`,
        ok: false,
      };
}

const text = (id: string, field: string, label: string, value: string | null, extra = '') =>
  `<div><label for="${id}">${label}</label><input id="${id}" data-field="${field}" value="${h(value ?? '')}" aria-describedby="${id}-err"${extra}>${errSlot(id, field)}</div>`;

function options(values: string[], selected: string, label: (v: string) => string): string {
  const all = values.includes(selected) ? values : [selected, ...values];
  return all.map((v) => `<option value="${h(v)}"${v === selected ? ' selected' : ''}>${h(label(v))}</option>`).join('');
}

const currencyNames = new Intl.DisplayNames(['en'], { type: 'currency' });
const currencyLabel = (c: string) => `${c} (${currencyNames.of(c) ?? c})`;

function colour(field: ColourField, label: string, value: string | null): string {
  const v = (value ?? COLOUR_DEFAULTS[field]).toLowerCase();
  const id = field.replace('_', '-');
  const c = contrastSentence(field, v);
  return `<div><label for="${id}">${label}</label><input type="color" id="${id}" data-field="${field}" data-saved="${h(value ?? '')}" value="${h(v)}" aria-describedby="${id}-note ${id}-err" style="height:2.75rem">
<span id="${id}-note" class="${c.ok ? 'muted' : 'err'}" aria-live="polite">${h(c.text)}</span>${errSlot(id, field)}</div>`;
}

function image(kind: 'logo' | 'favicon', label: string, url: string | null): string {
  const preview = url
    ? `<img id="${kind}-preview" src="${h(url)}" alt="Your ${kind} as it is now" style="max-height:${kind === 'logo' ? '4rem' : '2rem'};max-width:100%;display:block;margin:.25rem 0;background:#fff">`
    : `<p id="${kind}-preview" class="muted">No ${kind} yet.</p>`;
  return `<div><h3>${label}</h3>${preview}<label for="${kind}-file">Upload a ${kind} (PNG, JPEG or WebP, up to 2 MB)</label>
<input type="file" id="${kind}-file" data-upload="${kind}" data-field="${kind}.file" accept="image/png,image/jpeg,image/webp" aria-describedby="${kind}-file-err">${errSlot(`${kind}-file`, `${kind}.file`)}</div>`;
}

export function companyHtml({ s, branding, unlockedBy }: CompanyScreen): string {
  const zones = Intl.supportedValuesOf('timeZone');
  const currencies = Intl.supportedValuesOf('currency');
  const locked = branding
    ? ''
    : `<p id="branding-locked" class="card">A logo and colours come with ${h(unlockedBy ?? 'a paid plan')}. <a href="/office/settings/plan">See Plan and usage</a> to change plan.</p>`;
  return `<form id="company-form" class="card" novalidate>
<fieldset><legend>Company</legend><div class="fields">
${text('c-name', 'company_name', 'Company name', s.company_name, ' maxlength="100" autocomplete="organization"')}
${text('c-phone', 'phone', 'Phone', s.phone, ' maxlength="20" type="tel" autocomplete="tel"')}
${text('c-email', 'email', 'Email', s.email, ' maxlength="100" type="email" autocomplete="email"')}
</div><label for="c-address">Address</label><textarea id="c-address" data-field="address" maxlength="1000" aria-describedby="c-address-err">${h(s.address ?? '')}</textarea>${errSlot('c-address', 'address')}</fieldset>
<fieldset><legend>Time zone and currency</legend><div class="fields">
<div><label for="c-zone">Time zone</label><select id="c-zone" data-field="time_zone" aria-describedby="c-zone-err">${options(zones, s.time_zone, (z) => z.replace(/_/g, ' '))}</select>${errSlot('c-zone', 'time_zone')}</div>
<div><label for="c-currency">Currency</label><select id="c-currency" data-field="currency" aria-describedby="c-currency-err">${options(currencies, s.currency, currencyLabel)}</select>${errSlot('c-currency', 'currency')}</div>
</div><p class="muted">Prices, quotes and grids are shown in this currency; changing it converts no figures.</p></fieldset>
<fieldset><legend>Social and search engines</legend><div class="fields">
${text('c-facebook', 'social_facebook', 'Facebook page', s.social_facebook, ' type="url" maxlength="255"')}
${text('c-instagram', 'social_instagram', 'Instagram profile', s.social_instagram, ' type="url" maxlength="255"')}
${text('c-meta-title', 'meta_title', 'Title in search results', s.meta_title, ' maxlength="100"')}
${text('c-meta-description', 'meta_description', 'Description in search results', s.meta_description, ' maxlength="255"')}
</div></fieldset>
<h2>Logo and colours</h2>${locked}
<fieldset id="branding"${branding ? '' : ' disabled'}><legend>Branding</legend><div class="fields">
${image('logo', 'Logo', s.logo_url)}${image('favicon', 'Favicon (browser tab icon)', s.favicon_url)}
${colour('primary_color', 'Main colour (header and buttons)', s.primary_color)}
${colour('secondary_color', 'Background colour', s.secondary_color)}
</div></fieldset>
<button class="btn" type="submit" style="margin-top:1rem">Save company settings</button></form>`;
}
