/**
 * /office/settings/suppliers (owners and admins): the vendors (GET/POST /supply/suppliers) and each
 * price-grid product's vendor, code, cost and lead time (GET/PUT /supply/products/{code}).
 */
import type { ProductSupplyView, SupplierView } from '@platform/contracts/purchase-orders.js';
import type { PriceGrid } from '@platform/contracts/window-pricing.js';

import { call, postJson } from '../field/api.js';
import { h } from '../shared/dom.js';
import { tenantCurrency } from '../shared/money.js';
import type { OfficePage } from './office-page.js';
import { sendForm, settingsHead } from './settings-common.js';
import { suppliersHtml } from './suppliers.view.js';

const digitsOf = (currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
const product = (code: string) => `/supply/products/${encodeURIComponent(code)}`;
const value = (f: HTMLFormElement, field: string) =>
  f.querySelector<HTMLInputElement | HTMLSelectElement>(`[data-field="${field}"]`)!.value.trim();
/** A number typed in a field, or the text itself so the API names what is wrong with it. */
const numberOr = (v: string, scale = 1): number | string =>
  v !== '' && Number.isFinite(Number(v)) ? Math.round(Number(v) * scale) : v;

async function draw(app: HTMLElement, msg = '', kind: 'ok' | 'err' | '' = ''): Promise<void> {
  const [suppliers, grids] = await Promise.all([
    call<{ items: SupplierView[] }>('/supply/suppliers'),
    call<{ items: PriceGrid[] }>('/sales/price-grids'),
  ]);
  const rows = await Promise.all(
    grids.items.map(async (g) => ({ name: g.name, supply: await call<ProductSupplyView>(product(g.product_code)) })),
  );
  const currency = tenantCurrency();
  app.innerHTML = `${settingsHead('Suppliers')}<p id="office-msg" role="status" class="${kind}">${h(msg)}</p>${suppliersHtml(suppliers.items, rows, currency, digitsOf(currency))}`;
}

export const suppliersPage: OfficePage = {
  show: (app, msg = '') => draw(app, msg, msg ? 'ok' : ''),
  async submit(f, app) {
    if (f.id === 'supplier-add') {
      const name = value(f, 'name');
      const email = value(f, 'email');
      const ok = await sendForm(f, async () => {
        await postJson('/supply/suppliers', { name, email: email || null });
      });
      if (ok) await draw(app, `${name} added.`, 'ok');
      return;
    }
    const code = f.dataset.code;
    if (!code) return;
    const currency = tenantCurrency();
    const body = {
      supplier_id: numberOr(value(f, 'supplier_id')),
      supplier_code: value(f, 'supplier_code') || null,
      cost_minor: numberOr(value(f, 'cost_minor'), 10 ** digitsOf(currency)),
      lead_days: numberOr(value(f, 'lead_days')),
    };
    const name = f.querySelector('h3')?.textContent ?? code;
    const ok = await sendForm(f, async () => {
      await call(product(code), {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    });
    if (ok) await draw(app, `${name}: supplier saved.`, 'ok');
  },
};
