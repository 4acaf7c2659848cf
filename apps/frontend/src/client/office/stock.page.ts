/**
 * /office/stock (docs/inventory.md): GET /inventory/parts, /inventory/reorder and /supply/suppliers;
 * "Draft purchase order" (POST /inventory/reorder/purchase-orders), a count with its reason
 * (POST /inventory/parts/{id}/adjust), a receipt (POST /inventory/parts/{id}/receive, one
 * Idempotency-Key per screen drawn: a double click counts once) and a new part (POST /inventory/parts).
 * On a plan without `inventory` the API's refusal names the plan that has it.
 */
import type { DraftedReorder, PartView, ProductPart, ReorderAnswer } from '@platform/contracts/inventory.js';
import { toMinor } from '@platform/contracts/money.js';
import type { PriceGrid } from '@platform/contracts/window-pricing.js';

import { call, postJson } from '../field/api.js';
import { $, uuid } from '../shared/dom.js';
import { tenantCurrency } from '../shared/money.js';
import type { OfficePage } from './office-page.js';
import { planRefusal, refusal, sendForm } from './settings-common.js';
import { lockedStockHtml, stockHtml } from './stock.view.js';

let key = uuid();

async function draw(app: HTMLElement, msg = '', kind: 'ok' | 'err' | '' = ''): Promise<void> {
  let parts: PartView[];
  try {
    parts = (await call<{ items: PartView[] }>('/inventory/parts')).items;
  } catch (e) {
    const reason = planRefusal(e);
    if (!reason) throw e;
    app.innerHTML = lockedStockHtml(reason);
    return;
  }
  const [reorder, suppliers, grids] = await Promise.all([
    call<ReorderAnswer>('/inventory/reorder'),
    call<{ items: { id: number; name: string }[] }>('/supply/suppliers'),
    call<{ items: PriceGrid[] }>('/sales/price-grids'),
  ]);
  const products = await Promise.all(
    grids.items.map(async (g) => ({
      code: g.product_code,
      name: g.name,
      parts: (await call<{ parts: ProductPart[] }>(`/inventory/products/${encodeURIComponent(g.product_code)}/parts`))
        .parts,
    })),
  );
  key = uuid();
  app.innerHTML = stockHtml(
    { parts, reorder: reorder.items, suppliers: suppliers.items, products },
    tenantCurrency(),
    msg,
    kind,
  );
}

const num = (form: HTMLFormElement, name: string) => {
  const v = $<HTMLInputElement>(`[name="${name}"]`, form)?.value.trim() ?? '';
  return v === '' ? Number.NaN : Number(v);
};
const text = (form: HTMLFormElement, name: string) =>
  $<HTMLInputElement | HTMLSelectElement>(`[name="${name}"]`, form)?.value.trim() ?? '';

async function submitPart(form: HTMLFormElement, app: HTMLElement): Promise<void> {
  const id = form.dataset.part;
  let done = '';
  const sent = await sendForm(form, async () => {
    if (form.classList.contains('stock-adjust')) {
      const p = await postJson<PartView>(`/inventory/parts/${id}/adjust`, {
        quantity: num(form, 'quantity'),
        reason: text(form, 'reason'),
      });
      done = `${p.name}: counted ${p.on_hand}.`;
    } else {
      const p = await postJson<PartView>(
        `/inventory/parts/${id}/receive`,
        { qty: num(form, 'qty') },
        { 'idempotency-key': `${key}:${id}` },
      );
      done = `${p.name}: received, ${p.on_hand} on hand.`;
    }
  });
  if (sent) await draw(app, done, 'ok');
}

/** One part's quantity per window of a product, merged into the product's parts (0 removes it). */
async function submitPerWindow(form: HTMLFormElement, app: HTMLElement): Promise<void> {
  const code = encodeURIComponent(text(form, 'code'));
  const partId = Number(text(form, 'part_id'));
  const qty = num(form, 'qty_per_window');
  const sent = await sendForm(form, async () => {
    const had = (await call<{ parts: ProductPart[] }>(`/inventory/products/${code}/parts`)).parts;
    const parts = [
      ...had.filter((x) => x.part_id !== partId),
      ...(qty === 0 ? [] : [{ part_id: partId, qty_per_window: qty }]),
    ];
    await call(`/inventory/products/${code}/parts`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ parts }),
    });
  });
  if (sent) await draw(app, 'Parts per window saved.', 'ok');
}

export const stockPage: OfficePage = {
  async show(app, msg = '') {
    await draw(app, msg, msg ? 'ok' : '');
  },
  async submit(form, app) {
    if (form.dataset.part) return submitPart(form, app);
    if (form.id === 'product-parts') return submitPerWindow(form, app);
    if (form.id !== 'part-new') return;
    let name = '';
    const sent = await sendForm(form, async () => {
      const cost = num(form, 'cost');
      const p = await postJson<PartView>('/inventory/parts', {
        name: text(form, 'name'),
        code: text(form, 'code') || null,
        supplier_id: Number(text(form, 'supplier_id')),
        supplier_code: text(form, 'supplier_code') || null,
        cost_minor: Number.isFinite(cost) ? toMinor(cost, tenantCurrency()) : cost,
        reorder_min: num(form, 'reorder_min'),
        reorder_max: num(form, 'reorder_max'),
      });
      name = p.name;
    });
    if (sent) await draw(app, `${name} added.`, 'ok');
  },
  async click(b, app) {
    if (b.dataset.reorder !== 'all') return;
    b.disabled = true;
    try {
      const r = await postJson<DraftedReorder>('/inventory/reorder/purchase-orders', {});
      const names = r.purchase_orders.map((p) => `${p.name} to ${p.supplier}`).join(', ');
      await draw(app, names ? `Drafted ${names}.` : 'No part has a supplier to order from.', 'ok');
    } catch (e) {
      await draw(app, refusal(e), 'err');
    } finally {
      b.disabled = false;
    }
  },
};
