/** The purchase orders screen's HTML: grouped per sale order with what is still awaited, and its actions. */
import type { PurchaseOrderView } from '@platform/contracts/purchase-orders.js';
import { describe, expect, it } from 'vitest';

import { purchaseOrdersHtml } from './purchase-orders.view.js';

const po = (over: Partial<PurchaseOrderView>): PurchaseOrderView => ({
  id: 1,
  name: 'P00001',
  state: 'draft',
  supplier: { id: 7, name: 'Shade Mill' },
  origin: 'S00004',
  date_planned: '2026-12-10 10:00:00',
  status: 'open',
  lines: [{ id: 11, description: 'Roller shade – Office\n46 1/8" W × 48 1/2" H', qty: 1, qty_received: 0 }],
  ...over,
});

describe('the purchase orders screen', () => {
  it('groups orders per sale order, counts the windows awaited and offers Confirm on a draft only, Receive per awaited window', () => {
    const html = purchaseOrdersHtml('open', [
      po({}),
      po({
        id: 2,
        name: 'P00002',
        state: 'purchase',
        lines: [
          { id: 21, description: 'Wood blind – Den', qty: 1, qty_received: 1 },
          { id: 22, description: 'Wood blind – Hall', qty: 1, qty_received: 0 },
        ],
      }),
    ]);
    expect(html).toContain('Sale order S00004: 2 windows awaited');
    expect(html).toContain('46 1/8&quot; W × 48 1/2&quot; H');
    expect(html.match(/data-confirm="\d+"/g)).toEqual(['data-confirm="1"']);
    // The awaited window of the confirmed order is received on its own, or with the rest.
    expect(html.match(/data-receive="\d+"(?: data-line="\d+")?/g)).toEqual([
      'data-receive="2" data-line="22"',
      'data-receive="2"',
    ]);
  });

  it('says so when a list is empty, with its tab marked', () => {
    const html = purchaseOrdersHtml('late', []);
    expect(html).toContain('No late purchase orders.');
    expect(html).toContain('href="/office/purchase-orders?state=late" aria-current="page"');
  });
});
