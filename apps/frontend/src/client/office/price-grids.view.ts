/**
 * The HTML of Settings → Price grids and the reading of its form: a product's bands as a table (widths
 * across, drops down, each cell a price in the tenant's currency labelled "width 36, drop 48"), its
 * options and its mount allowances. Every input carries the API's field name (`bands.prices.1.2`), so
 * a 422 is shown beside the cell it names.
 */
import type { PriceGrid } from '@platform/contracts/window-pricing.js';

import { h } from '../shared/dom.js';
import { tenantCurrency } from '../shared/money.js';
import { errSlot } from './office-common.js';

/** A figure as the form shows it: '' for one that was not a number. */
const shown = (v: number | undefined, cents = false) =>
  v === undefined || Number.isNaN(v) ? '' : cents ? v.toFixed(2) : String(v);

/** An input with its error slot, named for screen readers by `label` (the table shows the bands). */
function field(id: string, name: string, value: string, label: string, extra = ''): string {
  return `<input id="${id}" data-field="${h(name)}" value="${h(value)}" aria-label="${h(label)}" aria-describedby="${id}-err" inputmode="decimal" autocomplete="off"${extra}>${errSlot(id, name)}`;
}

function bandsTable(g: PriceGrid): string {
  const { widths_in: widths, drops_in: drops, prices } = g.bands;
  const head = widths
    .map(
      (w, i) =>
        `<th scope="col">${field(`w-${i}`, `bands.widths_in.${i}`, shown(w), `width band ${i + 1}, inches`)}</th>`,
    )
    .join('');
  const rows = drops
    .map((d, r) => {
      const cells = widths
        .map((w, c) => {
          const name = `bands.prices.${r}.${c}`;
          return `<td>${field(`p-${r}-${c}`, name, shown(prices[r]?.[c], true), `width ${w}, drop ${d}`)}</td>`;
        })
        .join('');
      return `<tr><th scope="row">${field(`d-${r}`, `bands.drops_in.${r}`, shown(d), `drop band ${r + 1}, inches`)}</th>${cells}</tr>`;
    })
    .join('');
  return `<div class="grid-scroll" role="region" aria-labelledby="bands-h" tabindex="0"><table class="grid-table">
<thead><tr><td class="muted">Drop ↓ / width →</td>${head}</tr></thead><tbody>${rows}</tbody></table></div>`;
}

function optionRow(o: PriceGrid['options'][number], i: number): string {
  return `<li class="row" data-option-code="${h(o.code)}"><span><label for="o-name-${i}">Option ${i + 1} name</label><input id="o-name-${i}" data-field="options.${i}.name" value="${h(o.name)}" aria-describedby="o-name-${i}-err" maxlength="100">${errSlot(`o-name-${i}`, `options.${i}.name`)}</span>
<span><label for="o-price-${i}">Price (${h(tenantCurrency())})</label><input id="o-price-${i}" data-field="options.${i}.price" value="${shown(o.price, true)}" inputmode="decimal" aria-describedby="o-price-${i}-err">${errSlot(`o-price-${i}`, `options.${i}.price`)}</span>
<button class="btn secondary" type="button" data-remove-option="${i}">Remove<span class="visually-hidden"> ${h(o.name)}</span></button></li>`;
}

/** The product picker and the grid's form. */
export function priceGridsHtml(grids: PriceGrid[], g: PriceGrid): string {
  const picker = grids
    .map(
      (x) =>
        `<option value="${h(x.product_code)}"${x.product_code === g.product_code ? ' selected' : ''}>${h(x.name)}</option>`,
    )
    .join('');
  const allowance = (k: 'inside' | 'outside') =>
    `<span><label for="m-${k}">${k === 'inside' ? 'Inside' : 'Outside'} mount (inches)</label><input id="m-${k}" data-field="mount_allowance_in.${k}" value="${shown(g.mount_allowance_in[k])}" inputmode="decimal" aria-describedby="m-${k}-err">${errSlot(`m-${k}`, `mount_allowance_in.${k}`)}</span>`;
  return `<label for="grid-product">Product</label><select id="grid-product">${picker}</select>
<form id="grid-form" class="card" novalidate data-code="${h(g.product_code)}">
<label for="grid-name">Name shown on quotes</label><input id="grid-name" data-field="name" value="${h(g.name)}" maxlength="100" aria-describedby="grid-name-err">${errSlot('grid-name', 'name')}
<h2 id="bands-h">Prices by size</h2>
<p class="muted">Widths across, drops down, in inches (1/8 inch steps, ascending); prices in ${h(tenantCurrency())}. A window takes the smallest band that fits it.</p>
${bandsTable(g)}
<div class="row" style="margin:.5rem 0"><button class="btn secondary" type="button" data-band="add-width">Add a width</button><button class="btn secondary" type="button" data-band="add-drop">Add a drop</button>${
    g.bands.widths_in.length > 1
      ? '<button class="btn secondary" type="button" data-band="drop-width">Remove the last width</button>'
      : ''
  }${g.bands.drops_in.length > 1 ? '<button class="btn secondary" type="button" data-band="drop-drop">Remove the last drop</button>' : ''}</div>
<h2>Options</h2><ul class="plain">${g.options.map(optionRow).join('')}</ul>
<button class="btn secondary" type="button" data-add-option="1">Add an option</button>
<h2>Mount allowances</h2><p class="muted">Added to both measurements before the band is found.</p><div class="row">${allowance('inside')}${allowance('outside')}</div>
<div class="row" style="margin-top:1rem"><button class="btn" type="submit">Save ${h(g.name)}</button><button class="btn secondary" type="button" data-export="1">Export CSV</button>
<span><label for="grid-import">Import CSV (fills the table; then Save)</label><input id="grid-import" type="file" accept=".csv,text/csv"></span></div></form>`;
}

const read = (form: HTMLFormElement, id: string) => form.querySelector<HTMLInputElement>(`#${id}`)?.value.trim() ?? '';
/** A typed figure ("$1,089.50" or "89") as a number; NaN when it is none, which the page refuses. */
export const figure = (text: string) => (/^\$?[\d,]*\.?\d+$/.test(text) ? Number(text.replace(/[$,]/g, '')) : NaN);
/** A code for a new option from its name ("Blackout lining" → "blackout-lining"). */
export const optionCode = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40) || 'option';

/** The grid as typed in the form; figures that are not numbers come back NaN (see `unreadable`). */
export function readGridForm(form: HTMLFormElement, g: PriceGrid): PriceGrid {
  const widths = g.bands.widths_in.map((_, i) => figure(read(form, `w-${i}`)));
  const drops = g.bands.drops_in.map((_, i) => figure(read(form, `d-${i}`)));
  return {
    product_code: g.product_code,
    name: read(form, 'grid-name'),
    bands: {
      widths_in: widths,
      drops_in: drops,
      prices: drops.map((_, r) => widths.map((__, c) => figure(read(form, `p-${r}-${c}`)))),
    },
    options: Array.from(form.querySelectorAll<HTMLElement>('[data-option-code]')).map((li, i) => ({
      code: li.dataset.optionCode || optionCode(read(form, `o-name-${i}`)),
      name: read(form, `o-name-${i}`),
      price: figure(read(form, `o-price-${i}`)),
    })),
    mount_allowance_in: { inside: figure(read(form, 'm-inside')), outside: figure(read(form, 'm-outside')) },
  };
}

/** The fields whose text is not a number, as the API would name them. */
export function unreadable(g: PriceGrid): { field: string; message: string }[] {
  const out: { field: string; message: string }[] = [];
  const check = (v: number, field: string) => Number.isNaN(v) && out.push({ field, message: 'must be a number' });
  g.bands.widths_in.forEach((v, i) => check(v, `bands.widths_in.${i}`));
  g.bands.drops_in.forEach((v, i) => check(v, `bands.drops_in.${i}`));
  g.bands.prices.forEach((row, r) => row.forEach((v, c) => check(v, `bands.prices.${r}.${c}`)));
  g.options.forEach((o, i) => check(o.price, `options.${i}.price`));
  check(g.mount_allowance_in.inside, 'mount_allowance_in.inside');
  check(g.mount_allowance_in.outside, 'mount_allowance_in.outside');
  return out;
}
