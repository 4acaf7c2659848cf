/** SQL of the invoicing feature's tables (migration 0380): job_invoices, invoice_pay_links, invoice_checkouts. */
import type { Queryable } from '@platform/db';

export interface JobInvoiceRow {
  job_id: string;
  sale_order_id: number;
  invoice_id: number | null;
  making_until: Date | null;
}

export async function findJobInvoice(tx: Queryable, tenantId: string, jobId: string) {
  const r = await tx.query<JobInvoiceRow>(
    'SELECT job_id, sale_order_id, invoice_id, making_until FROM job_invoices WHERE tenant_id = $1 AND job_id = $2',
    [tenantId, jobId],
  );
  return r.rows[0];
}

/** Takes the lease of making the job's invoice: false when it is made or another live request holds it. */
export async function claimJobInvoice(
  tx: Queryable,
  t: { tenantId: string; jobId: string; orderId: number; seconds: number },
): Promise<boolean> {
  const r = await tx.query(
    `INSERT INTO job_invoices (tenant_id, job_id, sale_order_id, making_until)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4))
     ON CONFLICT (tenant_id, job_id) DO UPDATE SET making_until = EXCLUDED.making_until
       WHERE job_invoices.invoice_id IS NULL
         AND (job_invoices.making_until IS NULL OR job_invoices.making_until < now())
     RETURNING job_id`,
    [t.tenantId, t.jobId, t.orderId, t.seconds],
  );
  return (r.rowCount ?? 0) > 0;
}

export async function setJobInvoice(tx: Queryable, tenantId: string, jobId: string, invoiceId: number) {
  await tx.query('UPDATE job_invoices SET invoice_id = $3, making_until = NULL WHERE tenant_id = $1 AND job_id = $2', [
    tenantId,
    jobId,
    invoiceId,
  ]);
}

/** Nothing was made: the job is free to be invoiced again. */
export async function forgetJobInvoice(tx: Queryable, tenantId: string, jobId: string) {
  await tx.query('DELETE FROM job_invoices WHERE tenant_id = $1 AND job_id = $2 AND invoice_id IS NULL', [
    tenantId,
    jobId,
  ]);
}

/** Something may have been made: the next request takes over at once and looks in the ERP first. */
export async function releaseJobInvoice(tx: Queryable, tenantId: string, jobId: string) {
  await tx.query(
    'UPDATE job_invoices SET making_until = NULL WHERE tenant_id = $1 AND job_id = $2 AND invoice_id IS NULL',
    [tenantId, jobId],
  );
}

export async function insertPayLink(
  tx: Queryable,
  l: { tenantId: string; hash: string; invoiceId: number; emailedTo: string | null; expiresAt: Date },
) {
  await tx.query(
    `INSERT INTO invoice_pay_links (tenant_id, token_hash, invoice_id, emailed_to, expires_at)
     VALUES ($1, $2, $3, $4, $5)`,
    [l.tenantId, l.hash, l.invoiceId, l.emailedTo, l.expiresAt],
  );
}

/** The invoice a live pay link names. */
export async function livePayLink(tx: Queryable, tenantId: string, hash: string, now: Date) {
  const r = await tx.query<{ invoice_id: number }>(
    'SELECT invoice_id FROM invoice_pay_links WHERE tenant_id = $1 AND token_hash = $2 AND expires_at > $3',
    [tenantId, hash, now],
  );
  return r.rows[0]?.invoice_id;
}

export interface CheckoutRow {
  session_id: string;
  invoice_id: number;
  account_id: string;
  checkout_url: string;
  amount_minor: number;
  currency: string;
  status: 'open' | 'paid';
}
const CHECKOUT = 'session_id, invoice_id, account_id, checkout_url, amount_minor, currency, status';
const checkout = (r: CheckoutRow | undefined) => r && { ...r, amount_minor: Number(r.amount_minor) };

export async function checkoutFor(tx: Queryable, tenantId: string, invoiceId: number, amount: number, cur: string) {
  const r = await tx.query<CheckoutRow>(
    `SELECT ${CHECKOUT} FROM invoice_checkouts
      WHERE tenant_id = $1 AND invoice_id = $2 AND amount_minor = $3 AND currency = $4`,
    [tenantId, invoiceId, amount, cur],
  );
  return checkout(r.rows[0]);
}

/** The first session stored for the invoice and amount stays its own (racing inserts change nothing). */
export async function insertCheckout(tx: Queryable, tenantId: string, c: Omit<CheckoutRow, 'status'>) {
  await tx.query(
    `INSERT INTO invoice_checkouts (tenant_id, session_id, invoice_id, account_id, checkout_url, amount_minor, currency)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
    [tenantId, c.session_id, c.invoice_id, c.account_id, c.checkout_url, c.amount_minor, c.currency],
  );
  return checkoutFor(tx, tenantId, c.invoice_id, c.amount_minor, c.currency);
}

export async function checkoutBySession(tx: Queryable, tenantId: string, sessionId: string) {
  const r = await tx.query<CheckoutRow>(
    `SELECT ${CHECKOUT} FROM invoice_checkouts WHERE tenant_id = $1 AND session_id = $2`,
    [tenantId, sessionId],
  );
  return checkout(r.rows[0]);
}

/** Open → paid, once: false for a duplicate or reordered event. */
export async function markCheckoutPaid(tx: Queryable, tenantId: string, sessionId: string, intent: string | null) {
  const r = await tx.query(
    `UPDATE invoice_checkouts SET status = 'paid', paid_at = now(), payment_intent_id = $3
      WHERE tenant_id = $1 AND session_id = $2 AND status = 'open'`,
    [tenantId, sessionId, intent],
  );
  return (r.rowCount ?? 0) > 0;
}

/** "Invoice automatically when an install job completes": off without a row. */
export async function autoInvoiceOn(tx: Queryable, tenantId: string): Promise<boolean> {
  const r = await tx.query<{ auto_invoice: boolean }>(
    'SELECT auto_invoice FROM invoicing_settings WHERE tenant_id = $1',
    [tenantId],
  );
  return r.rows[0]?.auto_invoice ?? false;
}

export async function setAutoInvoice(tx: Queryable, tenantId: string, on: boolean): Promise<void> {
  await tx.query(
    `INSERT INTO invoicing_settings (tenant_id, auto_invoice) VALUES ($1, $2)
     ON CONFLICT (tenant_id) DO UPDATE SET auto_invoice = EXCLUDED.auto_invoice, updated_at = now()`,
    [tenantId, on],
  );
}

/** Open card checkouts of every tenant asked before `before` (the reconciliation's; outside any tenant). */
export async function openCheckoutsBefore(db: Queryable, before: Date, limit: number) {
  const r = await db.query<{ tenant_id: string; session_id: string; account_id: string }>(
    `SELECT tenant_id, session_id, account_id FROM invoice_checkouts
      WHERE status = 'open' AND created_at < $1 ORDER BY created_at LIMIT $2`,
    [before, limit],
  );
  return r.rows;
}

/** The tenant's invoice checkout a card payment came from (its connected account). */
export async function checkoutByIntent(tx: Queryable, tenantId: string, paymentIntentId: string) {
  const r = await tx.query<CheckoutRow>(
    `SELECT ${CHECKOUT} FROM invoice_checkouts WHERE tenant_id = $1 AND payment_intent_id = $2`,
    [tenantId, paymentIntentId],
  );
  return checkout(r.rows[0]);
}
