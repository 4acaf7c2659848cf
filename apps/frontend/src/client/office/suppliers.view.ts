/**
 * Settings → Suppliers (docs/control-plane.md, "Supplier orders"): the vendors with their email (where
 * confirmed purchase orders are sent), a form to add one, and per price-grid product its vendor, the
 * vendor's code, the cost and the lead time. Costs are shown and typed in major units of the
 * tenant's currency and sent in minor units.
 */
import type { ProductSupplyView, SupplierView } from '@platform/contracts/purchase-orders.js';

import { h } from '../shared/dom.js';
import { errSlot } from './office-common.js';

export interface SupplyRow {
  name: string;
  supply: ProductSupplyView;
}

const major = (minor: number | null, digits: number) => (minor === null ? '' : (minor / 10 ** digits).toFixed(digits));

function supplierList(suppliers: SupplierView[]): string {
  if (!suppliers.length) return '<p id="no-suppliers">No suppliers yet: add the first below.</p>';
  const items = suppliers
    .map((s) => `<li>${h(s.name)} · ${s.email ? h(s.email) : '<em>no email: orders are not emailed</em>'}</li>`)
    .join('');
  return `<ul id="supplier-list">${items}</ul>`;
}

const addForm = `<form id="supplier-add" class="row" novalidate>
<label for="sup-name">Supplier name</label><input id="sup-name" data-field="name" aria-describedby="sup-name-err" required>${errSlot('sup-name', 'name')}
<label for="sup-email">Email for orders</label><input id="sup-email" type="email" data-field="email" aria-describedby="sup-email-err">${errSlot('sup-email', 'email')}
<button class="btn" type="submit">Add supplier</button></form>`;

function productForm(r: SupplyRow, suppliers: SupplierView[], currency: string, digits: number): string {
  const c = r.supply.code;
  const id = (f: string) => `${c}-${f}`;
  const options = suppliers
    .map((s) => `<option value="${s.id}"${r.supply.supplier?.id === s.id ? ' selected' : ''}>${h(s.name)}</option>`)
    .join('');
  const field = (f: string, label: string, input: string) =>
    `<label for="${h(id(f))}">${label}</label>${input}${errSlot(id(f), f)}`;
  return `<form class="card product-supply" data-code="${h(c)}" novalidate><h3>${h(r.name)}</h3>
${field('supplier_id', 'Supplier', `<select id="${h(id('supplier_id'))}" data-field="supplier_id" aria-describedby="${h(id('supplier_id'))}-err"><option value="">Choose…</option>${options}</select>`)}
${field('supplier_code', 'Supplier’s code', `<input id="${h(id('supplier_code'))}" data-field="supplier_code" aria-describedby="${h(id('supplier_code'))}-err" value="${h(r.supply.supplier_code ?? '')}">`)}
${field('cost_minor', `Cost (${h(currency)})`, `<input id="${h(id('cost_minor'))}" data-field="cost_minor" inputmode="decimal" aria-describedby="${h(id('cost_minor'))}-err" value="${major(r.supply.cost_minor, digits)}">`)}
${field('lead_days', 'Lead time (days)', `<input id="${h(id('lead_days'))}" data-field="lead_days" inputmode="numeric" aria-describedby="${h(id('lead_days'))}-err" value="${r.supply.lead_days ?? ''}">`)}
<button class="btn secondary" type="submit">Save ${h(r.name)}</button></form>`;
}

export function suppliersHtml(suppliers: SupplierView[], rows: SupplyRow[], currency: string, digits = 2): string {
  const products = rows.length
    ? rows.map((r) => productForm(r, suppliers, currency, digits)).join('')
    : '<p>No price grids yet: products come from Settings → Price grids.</p>';
  return `<h2>Suppliers</h2>${supplierList(suppliers)}${addForm}<h2>Who supplies each product</h2><p>A confirmed sale order's windows are ordered from their product's supplier, expected after its lead time.</p>${products}`;
}
