/** SQL of the supply feature's purchase_order_receipts (migration 0450): the lease of an order's receipt. */
import type { Queryable } from '@platform/db';

/** Takes the order's receipt lease for `seconds` unless another receipt holds a live one. */
export async function takeReceiptLease(tx: Queryable, tenantId: string, orderId: number, seconds: number) {
  const r = await tx.query(
    `INSERT INTO purchase_order_receipts (tenant_id, purchase_order_id, lease_until)
     VALUES ($1, $2, now() + make_interval(secs => $3))
     ON CONFLICT (tenant_id, purchase_order_id) DO UPDATE SET lease_until = EXCLUDED.lease_until
      WHERE purchase_order_receipts.lease_until IS NULL OR purchase_order_receipts.lease_until < now()
     RETURNING purchase_order_id`,
    [tenantId, orderId, seconds],
  );
  return r.rows.length > 0;
}

export async function releaseReceiptLease(tx: Queryable, tenantId: string, orderId: number) {
  await tx.query(
    'UPDATE purchase_order_receipts SET lease_until = NULL WHERE tenant_id = $1 AND purchase_order_id = $2',
    [tenantId, orderId],
  );
}
