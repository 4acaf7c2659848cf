/** SQL of the invoicing feature's card_refunds (migration 0450): one row per provider refund and its lease. */
import type { Queryable } from '@platform/db';

import type { CardRefund } from './invoice-refunds-erp.js';

export type CardRefundSource = 'office' | 'provider';

/** `claimed`: this caller writes the ERP records now; `done`: they are written; `busy`: another writer holds it. */
export type CardRefundClaim = { state: 'claimed' } | { state: 'done'; creditNoteId: number } | { state: 'busy' };

/** The row (the first caller's facts stay) and its lease for `seconds`, unless written or leased by another. */
export async function claimCardRefund(
  tx: Queryable,
  tenantId: string,
  r: CardRefund & { source: CardRefundSource },
  seconds: number,
): Promise<CardRefundClaim> {
  await tx.query(
    `INSERT INTO card_refunds (tenant_id, refund_id, payment_intent_id, invoice_id, amount_minor, currency, source)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
    [tenantId, r.refundId, r.paymentIntentId, r.invoiceId, r.amountMinor, r.currency, r.source],
  );
  const took = await tx.query(
    `UPDATE card_refunds SET lease_until = now() + make_interval(secs => $3)
      WHERE tenant_id = $1 AND refund_id = $2 AND credit_note_id IS NULL
        AND (lease_until IS NULL OR lease_until < now())
      RETURNING refund_id`,
    [tenantId, r.refundId, seconds],
  );
  if (took.rows.length) return { state: 'claimed' };
  const row = await tx.query<{ credit_note_id: number | null }>(
    'SELECT credit_note_id FROM card_refunds WHERE tenant_id = $1 AND refund_id = $2',
    [tenantId, r.refundId],
  );
  const id = row.rows[0]?.credit_note_id;
  return id ? { state: 'done', creditNoteId: Number(id) } : { state: 'busy' };
}

/** The ERP holds the refund's credit note and payment: the lease ends. */
export async function markCardRefundMirrored(tx: Queryable, tenantId: string, refundId: string, creditNoteId: number) {
  await tx.query(
    `UPDATE card_refunds SET credit_note_id = $3, mirrored_at = now(), lease_until = NULL
      WHERE tenant_id = $1 AND refund_id = $2`,
    [tenantId, refundId, creditNoteId],
  );
}

/** The writer failed: the next one takes over at once (and finds what was written by its ref). */
export async function releaseCardRefund(tx: Queryable, tenantId: string, refundId: string) {
  await tx.query('UPDATE card_refunds SET lease_until = NULL WHERE tenant_id = $1 AND refund_id = $2', [
    tenantId,
    refundId,
  ]);
}
