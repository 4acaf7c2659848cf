/**
 * The office's supplier orders (docs/control-plane.md, "Supplier orders"): the open, late and
 * received tabs, grouped per sale order with the windows still awaited, and on each order its
 * Confirm (a draft) or "Receive the rest" (a confirmed order) action, and "Receive" on each awaited
 * window of a confirmed order (a partial receipt).
 */
import {
  PURCHASE_ORDER_LISTS,
  type PurchaseOrderFilter,
  type PurchaseOrderView,
} from '@platform/contracts/purchase-orders.js';

import { h } from '../shared/dom.js';

const NAMES: Record<PurchaseOrderFilter, string> = { open: 'Open', late: 'Late', received: 'Received' };
const STATES: Record<string, string> = { draft: 'Draft', sent: 'Sent', purchase: 'Confirmed', done: 'Locked' };

const awaited = (po: PurchaseOrderView) => po.lines.filter((l) => l.qty_received < l.qty);

function orderHtml(po: PurchaseOrderView): string {
  const action =
    po.state === 'draft' || po.state === 'sent'
      ? `<button class="btn" type="button" data-confirm="${po.id}">Confirm ${h(po.name)}</button>`
      : po.state === 'purchase' && awaited(po).length
        ? `<button class="btn secondary" type="button" data-receive="${po.id}">Receive the rest of ${h(po.name)}</button>`
        : '';
  const lines = po.lines
    .map((l) => {
      const text = l.description.split('\n').join(' · ');
      const left = l.qty - l.qty_received;
      // A confirmed order's awaited window can be received on its own (a partial receipt).
      const one =
        po.state === 'purchase' && left > 0
          ? ` <button class="btn secondary" type="button" data-receive="${po.id}" data-line="${l.id}" aria-label="Receive ${h(text)}">Receive</button>`
          : '';
      return `<li>${h(text)} <span class="pill">${left <= 0 ? 'Received' : `Awaited ${left} of ${l.qty}`}</span>${one}</li>`;
    })
    .join('');
  return `<li class="card po" data-po="${po.id}"><p><strong>${h(po.name)}</strong> · ${h(po.supplier?.name ?? '—')} <span class="pill">${h(STATES[po.state] ?? po.state)}</span> · expected ${h(po.date_planned?.slice(0, 10) ?? '—')}</p><ul>${lines}</ul>${action}</li>`;
}

export function purchaseOrdersHtml(
  filter: PurchaseOrderFilter,
  items: PurchaseOrderView[],
  msg = '',
  kind = '',
): string {
  const tabs = PURCHASE_ORDER_LISTS.map(
    (s) => `<a href="/office/purchase-orders?state=${s}"${s === filter ? ' aria-current="page"' : ''}>${NAMES[s]}</a>`,
  ).join('');
  const bySale = new Map<string, PurchaseOrderView[]>();
  for (const po of items) bySale.set(po.origin ?? '—', [...(bySale.get(po.origin ?? '—') ?? []), po]);
  const groups = [...bySale]
    .map(([origin, pos]) => {
      const waiting = pos.reduce((n, po) => n + awaited(po).length, 0);
      // The received tab holds only that sale order's received orders: no count of the others there.
      const count = filter === 'received' ? '' : `: ${waiting} window${waiting === 1 ? '' : 's'} awaited`;
      return `<section class="po-sale" aria-labelledby="sale-${h(origin)}"><h2 id="sale-${h(origin)}">Sale order ${h(origin)}${count}</h2><ul class="plain">${pos.map(orderHtml).join('')}</ul></section>`;
    })
    .join('');
  return `<h1>Purchase orders</h1><p id="office-msg" role="status" class="${h(kind)}">${h(msg)}</p>
<nav aria-label="Purchase order lists" class="row settings-tabs">${tabs}</nav>${groups || `<p id="po-empty">No ${NAMES[filter].toLowerCase()} purchase orders.</p>`}`;
}
