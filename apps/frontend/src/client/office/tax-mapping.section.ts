/**
 * Settings → Integrations, "Tax mapping" (shown once the accounting is connected): each ERP sale tax
 * (name, %) beside a select of the accounting provider's active sale rates, the stored choice or else
 * the automatic one (the one rate of the same percent) pre-selected, and why a choice is needed when
 * there is none. Save sends every row's choice (GET/PUT …/integrations/accounting/tax-mapping);
 * an invoice whose tax has no tax type is held until then (docs/integrations.md, "Tax mapping").
 */
import type { TaxMappingRow, TaxMappingView } from '@platform/contracts/integrations.js';

import { call } from '../field/api.js';
import { h } from '../shared/dom.js';
import { errSlot } from './office-common.js';
import { refusal, sendForm, tenantApi } from './settings-common.js';

const url = async () => tenantApi('/integrations/accounting/tax-mapping');

/** The mapping, or the reason it cannot be read (not connected, provider down) as a sentence. */
export async function taxMapping(): Promise<TaxMappingView | string> {
  try {
    return await call<TaxMappingView>(await url());
  } catch (e) {
    return refusal(e);
  }
}

const percent = (n: number) => `${Number(n.toFixed(4))} %`;
const NEEDS: Record<NonNullable<TaxMappingRow['needs_choice']>, string> = {
  ambiguous: 'Several rates have this percent: choose one.',
  unmatched: 'No rate has this percent: choose one.',
  inactive: 'The chosen rate is no longer active: choose another.',
};

function rowHtml(t: TaxMappingRow, v: TaxMappingView): string {
  const id = `tax-${t.erp_tax_id}`;
  const field = `tax_types.${t.erp_tax_id}`;
  const chosen = t.tax_type ?? t.suggested;
  const options = v.rates
    .map((r) => {
      const sel = r.tax_type === chosen ? ' selected' : '';
      // The provider's own name and percent, as the owner sees them there; the code is its value.
      return `<option value="${h(r.tax_type)}"${sel}>${h(r.name)} (${h(percent(r.rate))})</option>`;
    })
    .join('');
  const blank =
    chosen && v.rates.some((r) => r.tax_type === chosen) ? '' : '<option value="" selected>Choose…</option>';
  const note = t.needs_choice
    ? `<span class="err">${NEEDS[t.needs_choice]}</span>`
    : !t.tax_type
      ? '<span class="muted">Matched by rate: press Save to keep it.</span>'
      : '';
  return `<tr><td data-label="ERP tax"><label for="${id}">${h(t.name)}</label></td><td data-label="Rate" class="num">${h(percent(t.amount))}</td>
<td data-label="Accounting tax rate"><select id="${id}" data-tax-id="${t.erp_tax_id}" data-field="${h(field)}" aria-describedby="${id}-err ${id}-note">${blank}${options}</select>
<span id="${id}-note">${note}</span>${errSlot(id, field)}</td></tr>`;
}

export function taxMappingHtml(v: TaxMappingView | string | undefined): string {
  if (v === undefined) return '';
  const head = '<section class="card" aria-labelledby="tax-h"><h2 id="tax-h" style="margin-top:0">Tax mapping</h2>';
  if (typeof v === 'string') return `${head}<p id="tax-state" class="err">${h(v)}</p></section>`;
  if (!v.taxes.length) return `${head}<p id="tax-state">Your ERP has no sale taxes to map.</p></section>`;
  const open = v.taxes.filter((t) => t.needs_choice || !t.tax_type).length;
  const state = open
    ? `${open} of ${v.taxes.length} taxes are not saved yet: an invoice with one of them is held until you save its rate.`
    : 'Every ERP tax has its accounting tax rate.';
  return `${head}<p id="tax-state">${h(state)}</p>
<form id="tax-form" novalidate><table class="lines" id="tax-table"><caption class="visually-hidden">ERP taxes and their accounting tax rates</caption>
<thead><tr><th scope="col">ERP tax</th><th scope="col" class="num">Rate</th><th scope="col">Accounting tax rate</th></tr></thead>
<tbody>${v.taxes.map((t) => rowHtml(t, v)).join('')}</tbody></table>
<p class="muted">Lines without tax are sent as ${h(v.no_tax_type)}.</p>
<button class="btn" type="submit" style="margin-top:.5rem">Save tax mapping</button></form></section>`;
}

/** Sends every chosen rate; true when saved. */
export async function saveTaxMapping(form: HTMLFormElement): Promise<boolean> {
  const tax_types = Object.fromEntries(
    Array.from(form.querySelectorAll<HTMLSelectElement>('select[data-tax-id]'))
      .filter((s) => s.value !== '')
      .map((s) => [s.dataset.taxId!, s.value]),
  );
  return sendForm(form, async () => {
    await call(await url(), {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tax_types }),
    });
  });
}
