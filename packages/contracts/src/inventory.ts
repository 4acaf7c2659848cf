/**
 * Stock (docs/inventory.md): stocked parts as the office and field apps read them, the reorder list,
 * and the outbox job that reserves a confirmed order's parts. Quantities are in the part's unit
 * (pieces, or metres of fabric), so they may carry decimals; money is in minor units.
 */
export const TOPIC_INVENTORY_RESERVE = 'inventory.reserve_parts';

export interface InventoryReservePayload {
  saleOrderId: number;
}

/** The outbox dedupe key: one reservation per confirmed sale order. */
export const inventoryReserveKey = (tenantId: string, saleOrderId: number) =>
  `inventory-reserve:${tenantId}:${saleOrderId}`;

export interface PartLocationStock {
  location: string;
  on_hand: number;
  reserved: number;
  available: number;
}

export interface PartView {
  id: number;
  name: string;
  code: string | null;
  supplier: { id: number; name: string } | null;
  supplier_code: string | null;
  cost_minor: number | null;
  reorder_min: number;
  reorder_max: number;
  on_hand: number;
  reserved: number;
  available: number;
  /** Available below the reorder minimum: the part is on the reorder list. */
  below_min: boolean;
  locations: PartLocationStock[];
}

export interface PartsAnswer {
  items: PartView[];
}

export interface NewPart {
  name: string;
  code?: string | null | undefined;
  supplier_id: number;
  supplier_code?: string | null | undefined;
  cost_minor: number;
  reorder_min: number;
  reorder_max: number;
}

export interface StockAdjustment {
  /** The counted quantity on hand. */
  quantity: number;
  reason: string;
}

export interface ReorderLine {
  part: PartView;
  /** Up to the reorder maximum. */
  suggested_qty: number;
}

export interface ReorderAnswer {
  items: ReorderLine[];
}

export interface DraftedReorder {
  purchase_orders: { id: number; name: string; supplier: string; created: boolean }[];
}

/** A product (blind type) needs these parts per window. */
export interface ProductPart {
  part_id: number;
  qty_per_window: number;
}

export interface PartUsed {
  part_id: number;
  qty: number;
}

export interface PartsUsedAnswer {
  job_id: string;
  parts: (PartUsed & { name: string })[];
}
