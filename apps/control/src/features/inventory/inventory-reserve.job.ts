/**
 * The outbox job that reserves a confirmed sale order's parts (docs/inventory.md), queued by
 * inventory-reserve.enqueue.ts; a retried run finds the delivery an earlier run made. Run by the
 * control plane's own relay for this topic.
 */
import { hostname } from 'node:os';

import { TOPIC_INVENTORY_RESERVE } from '@platform/contracts/inventory.js';
import type { Db } from '@platform/db';
import { newId } from '@platform/kernel';
import { OutboxRelay, type RelayLogger } from '@platform/outbox';

import type { InventoryUsage } from './inventory-usage.service.js';

/** This topic only: the worker's relays have no handler for it, so each row is claimed here. */
export function inventoryReserveRelay(db: Db, usage: InventoryUsage, logger: RelayLogger): OutboxRelay {
  return new OutboxRelay({
    db,
    workerId: `${hostname()}:${process.pid}:control-inventory:${newId().slice(0, 8)}`,
    handlers: {
      [TOPIC_INVENTORY_RESERVE]: (row) => usage.reserveForOrder(row.tenant_id, row.payload.saleOrderId),
    },
    logger,
  });
}
