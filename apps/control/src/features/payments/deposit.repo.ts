/** SQL of `deposit_payments` (migration 0360): the deposit checkout of an accepted quote. */
import type { Queryable } from '@platform/db';

export interface DepositRow {
  tenant_id: string;
  quote_id: string;
  account_id: string;
  session_id: string;
  checkout_url: string;
  amount_minor: number;
  currency: string;
  status: 'open' | 'paid';
  paid_at: Date | null;
}

const COLUMNS = 'tenant_id, quote_id, account_id, session_id, checkout_url, amount_minor, currency, status, paid_at';

// bigint comes back as a string from node-postgres: the amount is read as a number (it fits).
const row = (r: DepositRow): DepositRow => ({ ...r, amount_minor: Number(r.amount_minor) });

export async function findDeposit(tx: Queryable, tenantId: string, quoteId: string): Promise<DepositRow | undefined> {
  const r = await tx.query<DepositRow>(
    `SELECT ${COLUMNS} FROM deposit_payments WHERE tenant_id = $1 AND quote_id = $2`,
    [tenantId, quoteId],
  );
  return r.rows[0] && row(r.rows[0]);
}

/** The first session stored for the quote stays its own: a racing second insert changes nothing. */
export async function insertDeposit(
  tx: Queryable,
  d: Omit<DepositRow, 'status' | 'paid_at'>,
): Promise<DepositRow | undefined> {
  await tx.query(
    `INSERT INTO deposit_payments (tenant_id, quote_id, account_id, session_id, checkout_url, amount_minor, currency)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
    [d.tenant_id, d.quote_id, d.account_id, d.session_id, d.checkout_url, d.amount_minor, d.currency],
  );
  return findDeposit(tx, d.tenant_id, d.quote_id);
}

export async function depositBySession(
  tx: Queryable,
  tenantId: string,
  sessionId: string,
): Promise<DepositRow | undefined> {
  const r = await tx.query<DepositRow>(
    `SELECT ${COLUMNS} FROM deposit_payments WHERE tenant_id = $1 AND session_id = $2`,
    [tenantId, sessionId],
  );
  return r.rows[0] && row(r.rows[0]);
}

/** Open → paid, once: false when the row was already paid (a duplicate or reordered event). */
export async function markDepositPaid(
  tx: Queryable,
  tenantId: string,
  sessionId: string,
  paymentIntentId: string | null,
): Promise<boolean> {
  const r = await tx.query(
    `UPDATE deposit_payments SET status = 'paid', paid_at = now(), payment_intent_id = $3
      WHERE tenant_id = $1 AND session_id = $2 AND status = 'open'`,
    [tenantId, sessionId, paymentIntentId],
  );
  return (r.rowCount ?? 0) > 0;
}
