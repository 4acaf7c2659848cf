/**
 * Queues the reservation of a confirmed sale order's parts (docs/inventory.md), beside the supplier
 * orders' job, in the transaction that records the confirmation, keyed by the sale order: a quote
 * confirmed twice queues one job. Apart from the relay so the confirming features import only this.
 */
import {
  inventoryReserveKey,
  type InventoryReservePayload,
  TOPIC_INVENTORY_RESERVE,
} from '@platform/contracts/inventory.js';
import type { Queryable } from '@platform/db';
import { enqueue } from '@platform/outbox';

/** In the caller's transaction (the one that records the confirmation): one job per sale order. */
export function enqueuePartsReservation(tx: Queryable, tenantId: string, saleOrderId: number) {
  const payload: InventoryReservePayload = { saleOrderId };
  return enqueue(tx, {
    tenantId,
    topic: TOPIC_INVENTORY_RESERVE,
    aggregateId: String(saleOrderId),
    dedupeKey: inventoryReserveKey(tenantId, saleOrderId),
    payload,
  });
}
