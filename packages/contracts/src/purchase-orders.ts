/** Supplier orders as the office sees them (docs/control-plane.md, "Supplier orders"): GET /purchase-orders. */
export const PURCHASE_ORDER_LISTS = ['open', 'late', 'received'] as const;
export type PurchaseOrderFilter = (typeof PURCHASE_ORDER_LISTS)[number];

export interface PurchaseOrderView {
  id: number;
  name: string;
  /** The ERP's: draft, sent, purchase (confirmed), done, cancel. */
  state: string;
  supplier: { id: number; name: string } | null;
  /** The sale order it was drafted for. */
  origin: string | null;
  date_planned: string | null;
  status: PurchaseOrderFilter;
  lines: { id: number; description: string; qty: number; qty_received: number }[];
}

/** `POST /purchase-orders/{id}/confirm`: the order, and where it was emailed (null: the supplier has no email). */
export interface PurchaseOrderConfirmAnswer extends PurchaseOrderView {
  emailed_to: string | null;
}

export interface PurchaseOrderList {
  items: PurchaseOrderView[];
}

/** A vendor (`GET`/`POST /supply/suppliers`): an ERP partner with a supplier rank. */
export interface SupplierView {
  id: number;
  name: string;
  email: string | null;
}

/** `GET /supply/products/{code}`: a grid product's vendor, vendor code, cost and lead time (nulls when unset). */
export interface ProductSupplyView {
  code: string;
  supplier: { id: number; name: string } | null;
  supplier_code: string | null;
  cost_minor: number | null;
  lead_days: number | null;
}

/** `PUT /supply/products/{code}`. */
export interface ProductSupplyInput {
  supplier_id: number;
  supplier_code: string | null;
  cost_minor: number;
  lead_days: number;
}
