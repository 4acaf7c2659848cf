/**
 * The HTML of /office/stock (docs/inventory.md): the reorder list with "Draft purchase order", each
 * part's quantities (on hand, reserved, available, per location) with its count and receipt forms,
 * and the new part form; on a plan without `inventory`, what it is and the plan that has it.
 */
import type { PartView, ProductPart, ReorderLine } from '@platform/contracts/inventory.js';
import { formatMoney } from '@platform/contracts/money.js';

import { h } from '../shared/dom.js';

const n = (v: number) => String(Math.round(v * 1000) / 1000);
const field = (id: string, name: string, label: string, input: string) =>
  `<label for="${id}">${h(label)}</label>${input.replace('<input', `<input id="${id}" name="${name}" data-field="${name}"`)}<small class="field-err" data-err-for="${name}"></small>`;

export function lockedStockHtml(reason: string): string {
  return `<h1>Stock</h1><section class="card" aria-labelledby="stock-locked-h"><h2 id="stock-locked-h" style="margin-top:0">Parts and stock</h2>
<p id="stock-locked">${h(reason)}</p>
<p>Motors, brackets, remotes and fabric with their quantities per location; confirmed orders reserve their parts, fitters record what they used, and parts under their reorder point are drafted into purchase orders.</p>
<p><a href="/office/settings/plan">See the plans</a></p></section>`;
}

function partHtml(p: PartView, currency: string): string {
  const where = p.locations.map((l) => `${h(l.location)}: ${n(l.on_hand)}`).join(' · ') || 'None in stock';
  const id = (x: string) => `${x}-${p.id}`;
  return `<li class="card part" data-part-id="${p.id}"><h3 style="margin-top:0">${h(p.name)}${p.code ? ` <span class="muted">${h(p.code)}</span>` : ''}${p.below_min ? ' <span class="pill">Reorder</span>' : ''}</h3>
<p class="stock-qty"><strong>${n(p.on_hand)}</strong> on hand · <strong>${n(p.reserved)}</strong> reserved · <strong>${n(p.available)}</strong> available</p>
<p class="muted">${where} · reorder under ${n(p.reorder_min)} up to ${n(p.reorder_max)} · ${h(p.supplier?.name ?? 'no supplier')}${p.supplier_code ? ` (${h(p.supplier_code)})` : ''}${p.cost_minor !== null ? ` · ${h(formatMoney(p.cost_minor, currency))}` : ''}</p>
<details><summary>Count or receive</summary>
<form class="stock-adjust" data-part="${p.id}" novalidate>${field(id('count'), 'quantity', 'Counted quantity', '<input type="number" min="0" step="any" required>')}${field(id('reason'), 'reason', 'Reason', '<input type="text" maxlength="200" required>')}<button class="btn secondary" type="submit">Save count</button></form>
<form class="stock-receive" data-part="${p.id}" novalidate>${field(id('qty'), 'qty', 'Quantity received', '<input type="number" min="0" step="any" required>')}<button class="btn secondary" type="submit">Receive</button></form>
</details></li>`;
}

function reorderHtml(items: ReorderLine[]): string {
  if (!items.length) return '<p id="reorder-empty">No part is under its reorder point.</p>';
  const rows = items
    .map(
      (r) =>
        `<li>${h(r.part.name)}: ${n(r.part.available)} available, under ${n(r.part.reorder_min)}; order ${n(r.suggested_qty)} from ${h(r.part.supplier?.name ?? 'no supplier')}</li>`,
    )
    .join('');
  return `<ul id="reorder-list">${rows}</ul><button class="btn" type="button" data-reorder="all">Draft purchase order</button>`;
}

function newPartHtml(suppliers: { id: number; name: string }[]): string {
  const options = suppliers.map((s) => `<option value="${s.id}">${h(s.name)}</option>`).join('');
  return `<details class="card"><summary>New part</summary><form id="part-new" novalidate>
${field('part-name', 'name', 'Name', '<input type="text" maxlength="120" required>')}
${field('part-code', 'code', 'Internal code (optional)', '<input type="text" maxlength="64">')}
<label for="part-supplier">Supplier</label><select id="part-supplier" name="supplier_id" data-field="supplier_id" required>${options}</select><small class="field-err" data-err-for="supplier_id"></small>
${field('part-supplier-code', 'supplier_code', 'Supplier code', '<input type="text" maxlength="60">')}
${field('part-cost', 'cost', 'Cost', '<input type="number" min="0" step="0.01" required>')}
${field('part-min', 'reorder_min', 'Reorder under', '<input type="number" min="0" step="any" required>')}
${field('part-max', 'reorder_max', 'Reorder up to', '<input type="number" min="0" step="any" required>')}
<button class="btn" type="submit">Add part</button></form></details>`;
}

/** A product (blind type) and the parts each of its windows needs. */
export interface ProductParts {
  code: string;
  name: string;
  parts: ProductPart[];
}

function perWindowHtml(products: ProductParts[], parts: PartView[]): string {
  if (!parts.length) return '';
  const nameOf = (id: number) => parts.find((p) => p.id === id)?.name ?? `#${id}`;
  const listed = products
    .filter((p) => p.parts.length)
    .map(
      (p) =>
        `<li>${h(p.name)}: ${p.parts.map((x) => `${n(x.qty_per_window)} × ${h(nameOf(x.part_id))}`).join(', ')}</li>`,
    )
    .join('');
  const opt = (v: string | number, label: string) => `<option value="${h(String(v))}">${h(label)}</option>`;
  return `<section aria-labelledby="per-window-h"><h2 id="per-window-h">Parts per window</h2>
<p>Reserved for each window of a confirmed order.</p>${listed ? `<ul id="per-window">${listed}</ul>` : ''}
<form id="product-parts" class="card" novalidate><label for="pp-product">Product</label><select id="pp-product" name="code">${products.map((p) => opt(p.code, p.name)).join('')}</select>
<label for="pp-part">Part</label><select id="pp-part" name="part_id">${parts.map((p) => opt(p.id, p.name)).join('')}</select>
${field('pp-qty', 'qty_per_window', 'Per window (0 removes it)', '<input type="number" min="0" step="any" required>')}<button class="btn secondary" type="submit">Save</button></form></section>`;
}

export function stockHtml(
  v: { parts: PartView[]; reorder: ReorderLine[]; suppliers: { id: number; name: string }[]; products: ProductParts[] },
  currency: string,
  msg = '',
  kind = '',
): string {
  const { parts } = v;
  return `<h1>Stock</h1><p id="office-msg" role="status" class="${h(kind)}">${h(msg)}</p>
<section aria-labelledby="reorder-h"><h2 id="reorder-h">Reorder list</h2>${reorderHtml(v.reorder)}</section>
<section aria-labelledby="parts-h"><h2 id="parts-h">Parts</h2>${parts.length ? `<ul class="plain">${parts.map((p) => partHtml(p, currency)).join('')}</ul>` : '<p>No stocked parts yet.</p>'}${newPartHtml(v.suppliers)}</section>
${perWindowHtml(v.products, parts)}`;
}
