/**
 * A confirmed sale order's supplier orders (docs/control-plane.md, "Supplier orders"): queued once per
 * sale order where it is confirmed (accepted without a deposit due, or its deposit recorded), run by
 * the control plane: one draft purchase order per vendor, found rather than made again on a retry.
 */
export const TOPIC_SUPPLY_DRAFT = 'supply.draft_purchase_orders';

export interface SupplyDraftPayload {
  saleOrderId: number;
}

/** The outbox dedupe key: one job per confirmed sale order. */
export const supplyDraftKey = (tenantId: string, saleOrderId: number) => `supply-draft:${tenantId}:${saleOrderId}`;
