/**
 * The outbox job that drafts a confirmed sale order's supplier orders (docs/control-plane.md,
 * "Supplier orders"). Queued in the transaction that records the confirmation (the portal's
 * acceptance without a deposit due, the deposit's ERP job), keyed by the sale order, so a quote
 * confirmed twice queues one job; a crash mid-run is retried by the outbox and the ERP step finds
 * the orders an earlier run made. Run by the control plane's own relay for this topic.
 */
import { hostname } from 'node:os';

import { supplyDraftKey, type SupplyDraftPayload, TOPIC_SUPPLY_DRAFT } from '@platform/contracts';
import type { Db, Queryable } from '@platform/db';
import { newId } from '@platform/kernel';
import { enqueue, OutboxRelay, PermanentFailure, type RelayLogger } from '@platform/outbox';

import type { TenantErps } from '../tenants/tenant-erps.js';
import { draftPurchaseOrders, type DraftResult } from './supply-erp.js';

/** In the caller's transaction (the one that records the confirmation): one job per sale order. */
export function enqueueSupplyDraft(tx: Queryable, tenantId: string, saleOrderId: number): Promise<number | null> {
  const payload: SupplyDraftPayload = { saleOrderId };
  return enqueue(tx, {
    tenantId,
    topic: TOPIC_SUPPLY_DRAFT,
    aggregateId: String(saleOrderId),
    dedupeKey: supplyDraftKey(tenantId, saleOrderId),
    payload,
  });
}

export class SupplyDraftJob {
  constructor(
    private readonly db: Db,
    private readonly erps: TenantErps,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async run(tenantId: string, saleOrderId: number): Promise<DraftResult> {
    const erp = await this.erps.forTenant(tenantId);
    const [so] = await erp.read('sale.order', [saleOrderId], ['state']);
    // Queued only once confirmed; an order cancelled since has nothing to buy.
    if (so?.state !== 'sale' && so?.state !== 'done') throw new PermanentFailure('the sale order is not confirmed');
    return draftPurchaseOrders(erp, saleOrderId, this.now());
  }

  /** This topic only: the worker's relays have no handler for it, so each row is claimed here. */
  relay(logger: RelayLogger): OutboxRelay {
    return new OutboxRelay({
      db: this.db,
      workerId: `${hostname()}:${process.pid}:control-supply:${newId().slice(0, 8)}`,
      handlers: { [TOPIC_SUPPLY_DRAFT]: (row) => this.run(row.tenant_id, row.payload.saleOrderId) },
      logger,
    });
  }
}
