/**
 * /office/settings/company: the company settings (GET/PUT /api/tenants/{id}/settings) and the plan
 * (GET …/plan, for `custom_branding` and the cheapest plan that has it). A logo or favicon is sent as
 * soon as it is chosen (PUT …/branding/{kind}, the file's bytes) and its preview redrawn; colours are
 * sent with the form, and only when changed, so a tenant whose plan lost branding can still save the rest.
 */
import { type BrandingImageKind, COMPANY_TEXT_FIELDS, type CompanySettings } from '@platform/contracts/branding.js';

import { call } from '../field/api.js';
import { getSession } from '../field/store.js';
import { $, h } from '../shared/dom.js';
import { COLOUR_DEFAULTS, type ColourField, companyHtml, contrastSentence } from './company.view.js';
import { clearFieldErrors, fieldProblems, say, showFieldErrors } from './office-common.js';
import type { OfficePage } from './office-page.js';
import type { PlanAnswer } from './plan.view.js';
import { refusal, sendForm, settingsHead, tenantApi } from './settings-common.js';

/** The cheapest plan (by monthly price) that has custom_branding. */
export const unlockingPlan = (plans: PlanAnswer['plans']) =>
  [...plans].sort((x, y) => x.prices.monthly - y.prices.monthly).find((p) => p.features.custom_branding)?.name;

async function draw(app: HTMLElement, msg = '', kind: 'ok' | 'err' | '' = ''): Promise<void> {
  const [saved, plan, session] = await Promise.all([
    call<CompanySettings>(await tenantApi('/settings')),
    call<PlanAnswer>(await tenantApi('/plan')),
    getSession(),
  ]);
  // Until a name is saved, pages show the name the company signed up with: so does the form.
  const s = { ...saved, company_name: saved.company_name ?? session?.tenant.name ?? null };
  const mine = plan.plans.find((p) => p.id === plan.plan);
  app.innerHTML = `${settingsHead('Company')}<p id="office-msg" role="status" class="${kind}">${h(msg)}</p>
${companyHtml({ s, branding: Boolean(mine?.features.custom_branding), unlockedBy: unlockingPlan(plan.plans) })}`;
  document.body.dataset.currency = s.currency;
}

/** The form's fields as the PUT takes them: empty text clears, colours only when changed. */
function change(form: HTMLFormElement): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of COMPANY_TEXT_FIELDS) {
    const el = form.querySelector<HTMLInputElement>(`[data-field="${f}"]`)!;
    body[f] = el.value.trim() || null;
  }
  body.time_zone = $<HTMLSelectElement>('#c-zone', form)!.value;
  body.currency = $<HTMLSelectElement>('#c-currency', form)!.value;
  for (const f of Object.keys(COLOUR_DEFAULTS) as ColourField[]) {
    const el = form.querySelector<HTMLInputElement>(`[data-field="${f}"]`)!;
    const saved = el.dataset.saved || COLOUR_DEFAULTS[f];
    if (!el.disabled && el.value.toLowerCase() !== saved.toLowerCase()) body[f] = el.value.toUpperCase();
  }
  return body;
}

async function upload(input: HTMLInputElement, app: HTMLElement): Promise<void> {
  const kind = input.dataset.upload as BrandingImageKind;
  const file = input.files?.[0];
  if (!file) return;
  const form = input.form!;
  clearFieldErrors(form);
  say(`Sending the ${kind}…`);
  try {
    await call(await tenantApi(`/branding/${kind}`), {
      method: 'PUT',
      headers: { 'content-type': file.type || 'application/octet-stream' },
      body: file,
    });
  } catch (e) {
    // The API names `file`; this page has one file input per kind.
    const problems = fieldProblems(e).map((p) => ({ ...p, field: `${kind}.${p.field}` }));
    if (!problems.length) return say(refusal(e), 'office-msg', 'err');
    showFieldErrors(form, problems);
    say(`The ${kind} was not saved: see the message under it.`, 'office-msg', 'err');
    return input.focus();
  }
  await draw(app, `The ${kind} is saved: your site, field app and portal show it now.`, 'ok');
  $<HTMLInputElement>(`#${kind}-file`)?.focus();
}

export const companyPage: OfficePage = {
  async show(app, msg = '') {
    await draw(app, msg);
  },
  input(el) {
    const field = el.dataset.field as ColourField | undefined;
    if (!field || !(field in COLOUR_DEFAULTS)) return;
    const note = $(`#${el.id}-note`);
    const c = contrastSentence(field, el.value);
    if (note) {
      note.className = c.ok ? 'muted' : 'err';
      note.textContent = c.text;
    }
  },
  async change(el, app) {
    if (el instanceof HTMLInputElement && el.dataset.upload) await upload(el, app);
  },
  async submit(form, app) {
    if (form.id !== 'company-form') return;
    const body = change(form);
    const ok = await sendForm(form, async () => {
      await call(await tenantApi('/settings'), {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    });
    if (ok) await draw(app, 'Company settings saved.', 'ok');
  },
};
