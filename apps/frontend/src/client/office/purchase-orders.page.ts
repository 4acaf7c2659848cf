/**
 * /office/purchase-orders (GET /purchase-orders?state=…): confirm a draft order
 * (POST /purchase-orders/{id}/confirm) or receive what is left of a confirmed one
 * (POST /purchase-orders/{id}/receive, one Idempotency-Key per list shown: a double click counts once),
 * or one awaited window of it (a partial receipt).
 */
import {
  PURCHASE_ORDER_LISTS,
  type PurchaseOrderConfirmAnswer,
  type PurchaseOrderFilter,
  type PurchaseOrderList,
  type PurchaseOrderView,
} from '@platform/contracts/purchase-orders.js';

import { call, postJson } from '../field/api.js';
import { uuid } from '../shared/dom.js';
import type { OfficePage } from './office-page.js';
import { purchaseOrdersHtml } from './purchase-orders.view.js';
import { refusal } from './settings-common.js';

const filterOf = (): PurchaseOrderFilter => {
  const s = new URLSearchParams(location.search).get('state');
  return (PURCHASE_ORDER_LISTS as readonly string[]).includes(s ?? '') ? (s as PurchaseOrderFilter) : 'open';
};

let shown: PurchaseOrderView[] = [];
let key = uuid();

async function draw(app: HTMLElement, msg = '', kind: 'ok' | 'err' | '' = ''): Promise<void> {
  shown = (await call<PurchaseOrderList>(`/purchase-orders?state=${filterOf()}`)).items;
  key = uuid();
  app.innerHTML = purchaseOrdersHtml(filterOf(), shown, msg, kind);
}

export const purchaseOrdersPage: OfficePage = {
  async show(app, msg = '') {
    await draw(app, msg, msg ? 'ok' : '');
  },
  async click(b, app) {
    const confirm = b.dataset.confirm;
    const receive = b.dataset.receive;
    if (!confirm && !receive) return;
    b.disabled = true;
    try {
      if (confirm) {
        const po = await postJson<PurchaseOrderConfirmAnswer>(`/purchase-orders/${confirm}/confirm`, {});
        const sent = po.emailed_to
          ? ` and emailed to ${po.emailed_to}`
          : ': the supplier has no email address, send it to them yourself';
        return await draw(app, `${po.name} confirmed${sent}.`, 'ok');
      }
      // One window (data-line) or the rest of the order.
      const only = b.dataset.line;
      const po = shown.find((p) => String(p.id) === receive);
      const lines = (po?.lines ?? [])
        .filter((l) => l.qty_received < l.qty && (!only || String(l.id) === only))
        .map((l) => ({ line_id: l.id, qty: l.qty - l.qty_received }));
      const r = await postJson<PurchaseOrderView>(
        `/purchase-orders/${receive}/receive`,
        { lines },
        { 'idempotency-key': `${key}:${receive}:${only ?? 'rest'}` },
      );
      const done = r.lines.every((l) => l.qty_received >= l.qty);
      await draw(app, done ? `${r.name} received.` : `Received part of ${r.name}.`, 'ok');
    } catch (e) {
      await draw(app, refusal(e), 'err');
    } finally {
      b.disabled = false;
    }
  },
};
