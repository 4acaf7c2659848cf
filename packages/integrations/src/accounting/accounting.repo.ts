/** SQL of the accounting sync: invoices sent, payments registered, webhook receipts, row locks. */
import type { Queryable } from '@platform/db';
import type { AccountingRow } from '../settings/settings.repo.js';

export async function listConnections(db: Queryable, tenantId: string): Promise<AccountingRow[]> {
  return (await db.query<AccountingRow>('SELECT * FROM accounting_connections WHERE tenant_id = $1 ORDER BY company_id', [tenantId])).rows;
}

export async function findByProviderTenant(db: Queryable, tenantId: string, providerTenantId: string): Promise<AccountingRow | undefined> {
  return (await db.query<AccountingRow>(
    'SELECT * FROM accounting_connections WHERE tenant_id = $1 AND provider_tenant_id = $2 ORDER BY company_id LIMIT 1',
    [tenantId, providerTenantId],
  )).rows[0];
}

export async function findById(db: Queryable, id: string): Promise<AccountingRow | undefined> {
  return (await db.query<AccountingRow>('SELECT * FROM accounting_connections WHERE id = $1', [id])).rows[0];
}

/** Held until the transaction ends: one refresh (or one payment registration) at a time, across workers. */
export async function lockKey(tx: Queryable, key: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [key]);
}

export interface SentInvoiceRow {
  erp_db: string;
  erp_invoice_id: number;
  provider_invoice_id: string;
  provider_invoice_number: string | null;
}

export async function findSentInvoice(db: Queryable, tenantId: string, erpDb: string, erpInvoiceId: number): Promise<SentInvoiceRow | undefined> {
  return (await db.query<SentInvoiceRow>(
    'SELECT erp_db, erp_invoice_id, provider_invoice_id, provider_invoice_number FROM accounting_invoices WHERE tenant_id = $1 AND erp_db = $2 AND erp_invoice_id = $3',
    [tenantId, erpDb, erpInvoiceId],
  )).rows[0];
}

export async function findSentByProviderId(db: Queryable, tenantId: string, providerInvoiceId: string): Promise<SentInvoiceRow | undefined> {
  return (await db.query<SentInvoiceRow>(
    'SELECT erp_db, erp_invoice_id, provider_invoice_id, provider_invoice_number FROM accounting_invoices WHERE tenant_id = $1 AND provider_invoice_id = $2',
    [tenantId, providerInvoiceId],
  )).rows[0];
}

export async function insertSentInvoice(db: Queryable, tenantId: string, r: SentInvoiceRow): Promise<void> {
  await db.query(
    `INSERT INTO accounting_invoices (tenant_id, erp_db, erp_invoice_id, provider_invoice_id, provider_invoice_number)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
    [tenantId, r.erp_db, r.erp_invoice_id, r.provider_invoice_id, r.provider_invoice_number],
  );
}

export interface PaymentClaim {
  provider_payment_id: string;
  erp_payment_id: number | null;
}

/** Inserts the claim when absent; returns the row as it stands. */
export async function claimPayment(db: Queryable, tenantId: string, p: { paymentId: string; invoiceId: string; amount: number }): Promise<PaymentClaim> {
  await db.query(
    `INSERT INTO accounting_payments (tenant_id, provider_payment_id, provider_invoice_id, amount) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
    [tenantId, p.paymentId, p.invoiceId, p.amount],
  );
  return (await db.query<PaymentClaim>(
    'SELECT provider_payment_id, erp_payment_id FROM accounting_payments WHERE tenant_id = $1 AND provider_payment_id = $2',
    [tenantId, p.paymentId],
  )).rows[0]!;
}

export async function setErpPayment(db: Queryable, tenantId: string, paymentId: string, erpPaymentId: number): Promise<void> {
  await db.query('UPDATE accounting_payments SET erp_payment_id = $3 WHERE tenant_id = $1 AND provider_payment_id = $2', [tenantId, paymentId, erpPaymentId]);
}

export async function recordReceipt(db: Queryable, tenantId: string, eventKey: string): Promise<boolean> {
  const r = await db.query(
    `INSERT INTO webhook_receipts (tenant_id, provider, event_id) VALUES ($1, 'accounting', $2) ON CONFLICT DO NOTHING RETURNING event_id`,
    [tenantId, eventKey],
  );
  return r.rows.length === 1;
}
