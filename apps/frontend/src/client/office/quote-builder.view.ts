/**
 * The quote builder's HTML: the customer, then one card per window (room, product, width and drop
 * as whole inches plus an eighths list, so a size is always exact to 1/8", mount, colour, the
 * product's options) with its live price. Every input names its request field (`data-field`) so the
 * control plane's 422 `errors` land under the right input.
 */
import type { PriceGrid } from '@platform/contracts/window-pricing.js';

import { h } from '../shared/dom.js';
import { eighthOptions } from '../shared/inch-input.js';
import { errSlot } from './office-common.js';

export interface WindowRow {
  room: string;
  product_code: string;
  width: string;
  width8: number;
  drop: string;
  drop8: number;
  mount: 'inside' | 'outside';
  colour: string;
  options: string[];
}

export interface CustomerFields {
  name: string;
  email: string;
  phone: string;
  street: string;
  city: string;
  zip: string;
}

export const CUSTOMER_FIELDS: [keyof CustomerFields, string, string][] = [
  ['name', 'Name', 'name'],
  ['email', 'Email', 'email'],
  ['phone', 'Phone', 'tel'],
  ['street', 'Street', 'street-address'],
  ['city', 'City', 'address-level2'],
  ['zip', 'ZIP', 'postal-code'],
];

function field(id: string, name: string, label: string, control: string): string {
  return `<div><label for="${id}">${label}</label>${control}${errSlot(id, name)}</div>`;
}

const text = (id: string, name: string, value: string, attrs = '') =>
  `<input id="${id}" data-field="${h(name)}" value="${h(value)}" aria-describedby="${id}-err" ${attrs}>`;

function size(i: number, key: 'width' | 'drop', label: string, whole: string, eighth: number): string {
  const id = `l${i}-${key}`;
  const name = `lines.${i}.${key}_in`;
  const opts = eighthOptions(eighth);
  return `<fieldset class="size"><legend>${label}</legend><div class="inch"><label for="${id}">Inches</label><input id="${id}" type="number" inputmode="numeric" min="1" max="600" step="1" data-row="${i}" data-key="${key}" data-field="${name}" value="${h(whole)}" aria-describedby="${id}-err"></div><div class="inch"><label for="${id}8">Eighths</label><select id="${id}8" data-row="${i}" data-key="${key}8">${opts}</select></div>${errSlot(id, name)}</fieldset>`;
}

export function optionsHtml(i: number, grid: PriceGrid | undefined, chosen: string[]): string {
  if (!grid?.options.length) return '<p class="muted">No options for this product.</p>';
  return grid.options
    .map(
      (o) =>
        `<label class="check"><input type="checkbox" data-row="${i}" data-option="${h(o.code)}" ${chosen.includes(o.code) ? 'checked' : ''}> ${h(o.name)} (+$${h(o.price)})</label>`,
    )
    .join('');
}

export function rowHtml(i: number, r: WindowRow, grids: PriceGrid[]): string {
  const p = `l${i}`;
  const products = grids
    .map(
      (g) =>
        `<option value="${h(g.product_code)}" ${g.product_code === r.product_code ? 'selected' : ''}>${h(g.name)}</option>`,
    )
    .join('');
  const mounts = (['inside', 'outside'] as const)
    .map(
      (m) =>
        `<option value="${m}" ${m === r.mount ? 'selected' : ''}>${m === 'inside' ? 'Inside' : 'Outside'}</option>`,
    )
    .join('');
  const grid = grids.find((g) => g.product_code === r.product_code);
  return `<li class="card window" data-index="${i}"><h3 id="${p}-title">Window ${i + 1}</h3><div class="fields">
${field(`${p}-room`, `lines.${i}.room`, 'Room', text(`${p}-room`, `lines.${i}.room`, r.room, `data-row="${i}" data-key="room" autocomplete="off"`))}
${field(`${p}-product`, `lines.${i}.product_code`, 'Product', `<select id="${p}-product" data-row="${i}" data-key="product_code" data-field="lines.${i}.product_code" aria-describedby="${p}-product-err">${products}</select>`)}
${size(i, 'width', 'Width', r.width, r.width8)}${size(i, 'drop', 'Drop', r.drop, r.drop8)}
${field(`${p}-mount`, `lines.${i}.mount`, 'Mount', `<select id="${p}-mount" data-row="${i}" data-key="mount" data-field="lines.${i}.mount" aria-describedby="${p}-mount-err">${mounts}</select>`)}
${field(`${p}-colour`, `lines.${i}.colour`, 'Colour', text(`${p}-colour`, `lines.${i}.colour`, r.colour, `data-row="${i}" data-key="colour"`))}
</div><fieldset><legend>Options</legend><div id="${p}-options" class="checks">${optionsHtml(i, grid, r.options)}</div></fieldset>
<div class="row price-row"><span>Price: <output id="${p}-price" for="${p}-width ${p}-drop ${p}-mount">–</output></span><span class="muted" id="${p}-how"></span>
<button class="btn secondary" type="button" data-remove-row="${i}" aria-label="Remove window ${i + 1}">Remove</button></div></li>`;
}

export function builderHtml(customer: CustomerFields, rows: WindowRow[], grids: PriceGrid[], intro: string): string {
  const who = CUSTOMER_FIELDS.map(([k, label, auto]) =>
    field(
      `c-${k}`,
      `customer.${k}`,
      label,
      text(
        `c-${k}`,
        `customer.${k}`,
        customer[k],
        `data-customer="${k}" autocomplete="${auto}"${k === 'email' ? ' type="email"' : ''}`,
      ),
    ),
  ).join('');
  return `<h1>New quote</h1>${intro ? `<p class="muted">${h(intro)}</p>` : ''}
<form id="quote-form" novalidate><fieldset class="card"><legend>Customer</legend><div class="fields">${who}</div></fieldset>
<h2>Windows</h2><p class="muted">Measure to the 1/8 inch: whole inches, then the eighths. An outside mount adds the product's allowance.</p>
<ol id="rows" class="plain">${rows.map((r, i) => rowHtml(i, r, grids)).join('')}</ol>
<button class="btn secondary" type="button" id="add-row">Add a window</button>
<p class="total">Subtotal: <output id="subtotal">$0.00</output> <span class="muted" id="priced-count"></span></p>
<p class="total">Tax: <output id="tax">$0.00</output> <span class="muted" id="tax-names"></span></p>
<p class="total">Total: <output id="total">$0.00</output></p>
<p id="office-msg" role="status"></p>
<button class="btn" type="submit" id="create-quote">Create quote</button></form>`;
}
