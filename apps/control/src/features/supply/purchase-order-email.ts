/**
 * A confirmed purchase order emailed to its supplier (docs/control-plane.md, "Supplier orders"): to the
 * email on the supplier's `res.partner`, through the email outbox in the caller's transaction, with a
 * line per window (the exact size, mount, colour and options as the line's description holds them) and
 * the order's PDF when the documents feature can draw it. Once per confirmation: the outbox key names
 * the order and the ERP's `date_approve`, so a second "Confirm", a retry or a race queues nothing more,
 * while an order reset to draft and confirmed again is sent again.
 */
import type { PurchaseOrderView } from '@platform/contracts/purchase-orders.js';
import type { Queryable } from '@platform/db';
import type { EmailOutboxService } from '@platform/email';
import type { Erp } from '@platform/erp';

import type { Principal } from '../auth/principal.js';
import type { PdfFile } from '../documents/pdf-reply.js';

export interface PurchaseOrderEmailParts {
  email: Pick<EmailOutboxService, 'enqueueIn'>;
  /** The order's PDF (the documents feature); null when it cannot be drawn (the text still goes). */
  pdf(p: Principal, purchaseOrderId: number): Promise<PdfFile | null>;
}

/** What will be sent: null when the supplier has no email address (the office sends it another way). */
export interface PurchaseOrderEmail {
  to: { address: string; name: string };
  key: string;
  data: { supplierName: string; orderNumber: string; lines: string[]; expectedBy?: string; pdfAttached: boolean };
  pdf: PdfFile | null;
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** Reads the supplier's address and the confirmation from the ERP, and draws the PDF (outside any transaction). */
export async function purchaseOrderEmail(
  erp: Erp,
  d: PurchaseOrderEmailParts,
  p: Principal,
  po: PurchaseOrderView,
): Promise<PurchaseOrderEmail | null> {
  if (!po.supplier || (po.state !== 'purchase' && po.state !== 'done')) return null;
  const [partner] = await erp.read('res.partner', [po.supplier.id], ['email', 'name']);
  const address = text(partner?.email);
  if (!address) return null;
  const [order] = await erp.read('purchase.order', [po.id], ['date_approve']);
  const pdf = await d.pdf(p, po.id).catch(() => null);
  const expectedBy = po.date_planned?.slice(0, 10);
  return {
    to: { address, name: text(partner?.name) ?? po.supplier.name },
    key: `purchase-order:${po.id}:confirmed:${text(order?.date_approve) ?? 'once'}`,
    data: {
      supplierName: text(partner?.name) ?? po.supplier.name,
      orderNumber: po.name,
      lines: po.lines.map((l) => `${l.qty} × ${l.description}`),
      ...(expectedBy ? { expectedBy } : {}),
      pdfAttached: pdf !== null,
    },
    pdf,
  };
}

/** Queues it in the caller's transaction (a key already used queues nothing). */
export async function queuePurchaseOrderEmail(
  tx: Queryable,
  d: PurchaseOrderEmailParts,
  tenantId: string,
  m: PurchaseOrderEmail,
): Promise<boolean> {
  const r = await d.email.enqueueIn(tx, {
    tenantId,
    template: 'purchase_order',
    to: m.to,
    data: m.data,
    key: m.key,
    ...(m.pdf
      ? {
          attachments: [
            { filename: m.pdf.filename, contentType: 'application/pdf', contentBase64: m.pdf.bytes.toString('base64') },
          ],
        }
      : {}),
  });
  return r.queued;
}
