/** SQL of `deposit_payments` (migration 0360): the deposit checkout of an accepted quote. */
import type { Queryable } from '@platform/db';

export type DepositMethod = 'card' | 'cash' | 'check' | 'bank';

export interface DepositRow {
  tenant_id: string;
  quote_id: string;
  /** Null for a deposit the office recorded (no checkout): migration 0370. */
  account_id: string | null;
  session_id: string | null;
  checkout_url: string | null;
  amount_minor: number;
  currency: string;
  status: 'open' | 'paid';
  paid_at: Date | null;
  method: DepositMethod;
  reference: string | null;
  payment_intent_id: string | null;
  /** What the ERP job made (deposit-erp.job.ts); null until it has run. */
  sale_order_id: number | null;
  invoice_id: number | null;
  erp_payment_id: number | null;
  erp_recorded_at: Date | null;
}

const COLUMNS =
  'tenant_id, quote_id, account_id, session_id, checkout_url, amount_minor, currency, status, paid_at, ' +
  'method, reference, payment_intent_id, sale_order_id, invoice_id, erp_payment_id, erp_recorded_at';

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
  d: Pick<
    DepositRow,
    'tenant_id' | 'quote_id' | 'account_id' | 'session_id' | 'checkout_url' | 'amount_minor' | 'currency'
  >,
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

/**
 * The office's cash, check or bank deposit: a paid row of its own, or the quote's open card row
 * turned paid by the office (the checkout then stays unused). False when the row was already paid.
 */
export async function recordOfficeDeposit(
  tx: Queryable,
  d: {
    tenantId: string;
    quoteId: string;
    method: Exclude<DepositMethod, 'card'>;
    amountMinor: number;
    currency: string;
    reference: string | null;
  },
): Promise<boolean> {
  const r = await tx.query(
    `INSERT INTO deposit_payments (tenant_id, quote_id, amount_minor, currency, method, reference, status, paid_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'paid', now())
     ON CONFLICT (tenant_id, quote_id) DO UPDATE
        SET amount_minor = EXCLUDED.amount_minor, currency = EXCLUDED.currency, method = EXCLUDED.method,
            reference = EXCLUDED.reference, status = 'paid', paid_at = now()
      WHERE deposit_payments.status = 'open'`,
    [d.tenantId, d.quoteId, d.amountMinor, d.currency, d.method, d.reference],
  );
  return (r.rowCount ?? 0) > 0;
}

/** What the ERP job made for the deposit: kept so the office and the portal can name them. */
export async function markDepositRecorded(
  tx: Queryable,
  tenantId: string,
  quoteId: string,
  ids: { saleOrderId: number; invoiceId: number; paymentId: number },
): Promise<void> {
  await tx.query(
    `UPDATE deposit_payments SET sale_order_id = $3, invoice_id = $4, erp_payment_id = $5,
            erp_recorded_at = COALESCE(erp_recorded_at, now())
      WHERE tenant_id = $1 AND quote_id = $2`,
    [tenantId, quoteId, ids.saleOrderId, ids.invoiceId, ids.paymentId],
  );
}

export interface OpenCardDeposits {
  tenant_id: string;
  account_id: string;
  oldest: Date;
}

/**
 * Per tenant and connected account, the oldest open card deposit: where the reconciliation of lost
 * webhooks starts asking the provider. Across tenants, as the platform's own periodic passes read.
 */
export async function openCardDeposits(db: Queryable): Promise<OpenCardDeposits[]> {
  const r = await db.query<OpenCardDeposits>(
    `SELECT tenant_id, account_id, min(created_at) AS oldest FROM deposit_payments
      WHERE status = 'open' AND method = 'card' GROUP BY tenant_id, account_id ORDER BY 3`,
  );
  return r.rows.map((x) => ({ ...x, oldest: new Date(x.oldest) }));
}
