/** SQL of the accounting sync: invoices sent, contacts linked, money registered, attention items, webhook receipts, locks. */
import type { Queryable } from '@platform/db';

import type { AccountingRow } from '../settings/settings.repo.js';

export async function listConnections(db: Queryable, tenantId: string): Promise<AccountingRow[]> {
  return (
    await db.query<AccountingRow>('SELECT * FROM accounting_connections WHERE tenant_id = $1 ORDER BY company_id', [
      tenantId,
    ])
  ).rows;
}

export async function findByProviderTenant(
  db: Queryable,
  tenantId: string,
  providerTenantId: string,
): Promise<AccountingRow | undefined> {
  return (
    await db.query<AccountingRow>(
      'SELECT * FROM accounting_connections WHERE tenant_id = $1 AND provider_tenant_id = $2 ORDER BY company_id LIMIT 1',
      [tenantId, providerTenantId],
    )
  ).rows[0];
}

export async function findById(db: Queryable, id: string): Promise<AccountingRow | undefined> {
  return (await db.query<AccountingRow>('SELECT * FROM accounting_connections WHERE id = $1', [id])).rows[0];
}

export interface SentInvoiceRow {
  erp_db: string;
  erp_invoice_id: number;
  provider_invoice_id: string;
  provider_invoice_number: string | null;
}

export async function findSentInvoice(
  db: Queryable,
  tenantId: string,
  erpDb: string,
  erpInvoiceId: number,
): Promise<SentInvoiceRow | undefined> {
  return (
    await db.query<SentInvoiceRow>(
      'SELECT erp_db, erp_invoice_id, provider_invoice_id, provider_invoice_number FROM accounting_invoices WHERE tenant_id = $1 AND erp_db = $2 AND erp_invoice_id = $3',
      [tenantId, erpDb, erpInvoiceId],
    )
  ).rows[0];
}

export async function findSentByProviderId(
  db: Queryable,
  tenantId: string,
  providerInvoiceId: string,
): Promise<SentInvoiceRow | undefined> {
  return (
    await db.query<SentInvoiceRow>(
      'SELECT erp_db, erp_invoice_id, provider_invoice_id, provider_invoice_number FROM accounting_invoices WHERE tenant_id = $1 AND provider_invoice_id = $2',
      [tenantId, providerInvoiceId],
    )
  ).rows[0];
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
export async function claimPayment(
  db: Queryable,
  tenantId: string,
  p: { paymentId: string; invoiceId: string; amount: number; kind?: RegisteredMoney['kind']; erpModel?: string },
): Promise<PaymentClaim> {
  await db.query(
    `INSERT INTO accounting_payments (tenant_id, provider_payment_id, provider_invoice_id, amount, kind, erp_model) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
    [tenantId, p.paymentId, p.invoiceId, p.amount, p.kind ?? 'payment', p.erpModel ?? 'account.payment'],
  );
  return (
    await db.query<PaymentClaim>(
      'SELECT provider_payment_id, erp_payment_id FROM accounting_payments WHERE tenant_id = $1 AND provider_payment_id = $2',
      [tenantId, p.paymentId],
    )
  ).rows[0]!;
}

/**
 * Takes the row's lease for `leaseMs` when nobody holds it (or theirs expired) and the work is still
 * to do (`for: 'register'`: no ERP id yet; `'undo'`: registered, not undone). False: done, or leased.
 */
export async function takeLease(
  db: Queryable,
  tenantId: string,
  key: string,
  work: 'register' | 'undo',
  leaseMs: number,
): Promise<boolean> {
  const todo = work === 'register' ? 'erp_payment_id IS NULL' : 'erp_payment_id IS NOT NULL AND undone_at IS NULL';
  const r = await db.query(
    `UPDATE accounting_payments SET lease_until = now() + make_interval(secs => $3::double precision / 1000)
     WHERE tenant_id = $1 AND provider_payment_id = $2 AND ${todo} AND (lease_until IS NULL OR lease_until < now())
     RETURNING provider_payment_id`,
    [tenantId, key, leaseMs],
  );
  return r.rows.length > 0;
}

/** Gives the lease back without recording anything (the ERP had nothing to do, or the call failed). */
export async function releaseLease(db: Queryable, tenantId: string, key: string): Promise<void> {
  await db.query(
    'UPDATE accounting_payments SET lease_until = NULL WHERE tenant_id = $1 AND provider_payment_id = $2',
    [tenantId, key],
  );
}

/** Records the ERP record of the provider money and releases the lease. */
export async function setErpPayment(
  db: Queryable,
  tenantId: string,
  paymentId: string,
  erpPaymentId: number,
): Promise<void> {
  await db.query(
    'UPDATE accounting_payments SET erp_payment_id = $3, lease_until = NULL WHERE tenant_id = $1 AND provider_payment_id = $2',
    [tenantId, paymentId, erpPaymentId],
  );
}

export interface ContactLink {
  provider_contact_id: string;
  matched_by: 'contact_number' | 'name' | 'created';
}

export async function findContactLink(
  db: Queryable,
  tenantId: string,
  erpDb: string,
  partnerId: number,
  providerTenantId: string,
): Promise<ContactLink | undefined> {
  return (
    await db.query<ContactLink>(
      'SELECT provider_contact_id, matched_by FROM accounting_contacts WHERE tenant_id = $1 AND erp_db = $2 AND erp_partner_id = $3 AND provider_tenant_id = $4',
      [tenantId, erpDb, partnerId, providerTenantId],
    )
  ).rows[0];
}

export async function insertContactLink(
  db: Queryable,
  tenantId: string,
  erpDb: string,
  partnerId: number,
  providerTenantId: string,
  link: ContactLink,
): Promise<void> {
  await db.query(
    `INSERT INTO accounting_contacts (tenant_id, erp_db, erp_partner_id, provider_tenant_id, provider_contact_id, matched_by)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
    [tenantId, erpDb, partnerId, providerTenantId, link.provider_contact_id, link.matched_by],
  );
}

export type AttentionKind =
  'ambiguous_contact' | 'unmapped_tax' | 'total_mismatch' | 'residual_mismatch' | 'provider_refused';
export interface AttentionRow {
  erp_db: string;
  erp_model: string;
  erp_id: number;
  kind: AttentionKind;
  detail: string;
  created_at: Date;
}

/** Opens (or refreshes the detail of) the item of this record and kind. */
export async function openAttention(
  db: Queryable,
  tenantId: string,
  a: Omit<AttentionRow, 'created_at'>,
): Promise<void> {
  await db.query(
    `INSERT INTO accounting_attention (tenant_id, erp_db, erp_model, erp_id, kind, detail) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (tenant_id, erp_db, erp_model, erp_id, kind) WHERE resolved_at IS NULL DO UPDATE SET detail = EXCLUDED.detail, updated_at = now()`,
    [tenantId, a.erp_db, a.erp_model, a.erp_id, a.kind, a.detail],
  );
}

export async function resolveAttention(
  db: Queryable,
  tenantId: string,
  erpDb: string,
  erpModel: string,
  erpId: number,
  kinds: AttentionKind[],
): Promise<void> {
  await db.query(
    `UPDATE accounting_attention SET resolved_at = now() WHERE tenant_id = $1 AND erp_db = $2 AND erp_model = $3 AND erp_id = $4
       AND kind = ANY($5::text[]) AND resolved_at IS NULL`,
    [tenantId, erpDb, erpModel, erpId, kinds],
  );
}

export async function listAttention(
  db: Queryable,
  tenantId: string,
  erp?: { erpDb: string; model: string; id: number },
): Promise<AttentionRow[]> {
  return (
    await db.query<AttentionRow>(
      `SELECT erp_db, erp_model, erp_id, kind, detail, created_at FROM accounting_attention
      WHERE tenant_id = $1 AND resolved_at IS NULL ${erp ? 'AND erp_db = $2 AND erp_model = $3 AND erp_id = $4' : ''} ORDER BY created_at, kind`,
      erp ? [tenantId, erp.erpDb, erp.model, erp.id] : [tenantId],
    )
  ).rows;
}

export interface RegisteredMoney {
  provider_payment_id: string;
  kind: 'payment' | 'credit_note' | 'prepayment' | 'overpayment';
  erp_model: string;
  erp_payment_id: number | null;
  amount: string;
  undone_at: Date | null;
}

export async function listRegistered(
  db: Queryable,
  tenantId: string,
  providerInvoiceId: string,
): Promise<RegisteredMoney[]> {
  return (
    await db.query<RegisteredMoney>(
      `SELECT provider_payment_id, kind, erp_model, erp_payment_id, amount, undone_at FROM accounting_payments
      WHERE tenant_id = $1 AND provider_invoice_id = $2 ORDER BY created_at`,
      [tenantId, providerInvoiceId],
    )
  ).rows;
}

export async function markUndone(db: Queryable, tenantId: string, key: string): Promise<void> {
  await db.query(
    'UPDATE accounting_payments SET undone_at = now(), lease_until = NULL WHERE tenant_id = $1 AND provider_payment_id = $2',
    [tenantId, key],
  );
}

export async function listSentInvoices(db: Queryable, tenantId: string): Promise<SentInvoiceRow[]> {
  return (
    await db.query<SentInvoiceRow>(
      'SELECT erp_db, erp_invoice_id, provider_invoice_id, provider_invoice_number FROM accounting_invoices WHERE tenant_id = $1 ORDER BY created_at',
      [tenantId],
    )
  ).rows;
}

/** Tenants with a connection that finished its connect (the periodic reconciliation visits these). */
export async function listConnectedTenants(db: Queryable): Promise<string[]> {
  return (
    await db.query<{ tenant_id: string }>(
      'SELECT DISTINCT tenant_id FROM accounting_connections WHERE provider_tenant_id IS NOT NULL ORDER BY tenant_id',
    )
  ).rows.map((r) => r.tenant_id);
}
