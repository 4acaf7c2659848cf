/**
 * What a confirmed sale order sets going, queued in the transaction that records the confirmation
 * (the office's confirm, the portal's acceptance with no deposit due, the deposit's ERP job): its
 * supplier orders drafted (docs/control-plane.md, "Supplier orders") and its parts reserved
 * (docs/inventory.md). Each job is keyed by the sale order, so a quote confirmed twice queues one of each.
 */
import type { Queryable } from '@platform/db';

import { enqueuePartsReservation } from '../inventory/inventory-reserve.enqueue.js';
import { enqueueSupplyDraft } from '../supply/supply-draft.job.js';

export async function enqueueOrderConfirmed(tx: Queryable, tenantId: string, saleOrderId: number): Promise<void> {
  await enqueueSupplyDraft(tx, tenantId, saleOrderId);
  await enqueuePartsReservation(tx, tenantId, saleOrderId);
}
