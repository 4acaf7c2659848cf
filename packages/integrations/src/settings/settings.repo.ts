/** SQL of the integration settings. Sealed columns arrive and leave sealed; the service opens them. */
import type { Queryable } from '@platform/db';

export interface AccountingRow {
  id: string;
  tenant_id: string;
  company_id: number;
  name: string;
  client_id: string;
  client_secret_enc: string;
  redirect_uri: string;
  webhook_key_enc: string;
  down_payment_product_id: number | null;
  payment_journal_id: number | null;
  sales_account_code: string;
  deposit_account_code: string;
  /** Migration 0400: where ERP payments and refunds are recorded at the provider. */
  payment_account_code: string;
  status: 'disconnected' | 'connecting' | 'connected' | 'needs_reconnect';
  status_detail: string | null;
  provider_tenant_id: string | null;
  provider_tenant_name: string | null;
  access_token_enc: string | null;
  refresh_token_enc: string | null;
  token_expires_at: Date | null;
  /** Held by a worker refreshing the tokens (accounting-tokens.ts); migration 0230. */
  refresh_lease_until?: Date | null;
  oauth_state: string | null;
  code_verifier_enc: string | null;
  /** The replaced Webhook Key (sealed as `webhook_key`), accepted until its expiry. */
  previous_webhook_key_enc: string | null;
  previous_webhook_key_expires_at: Date | null;
  /** ERP tax id (or sorted ids joined with ",") → provider TaxType. */
  tax_types: Record<string, string>;
  /** Provider TaxType of lines without ERP tax. */
  no_tax_type: string;
  /** Scopes granted at the last connect (space-separated). */
  granted_scopes: string | null;
}

export async function upsertAccounting(
  db: Queryable,
  r: Omit<
    AccountingRow,
    | 'id'
    | 'status'
    | 'status_detail'
    | 'provider_tenant_id'
    | 'provider_tenant_name'
    | 'access_token_enc'
    | 'refresh_token_enc'
    | 'token_expires_at'
    | 'oauth_state'
    | 'code_verifier_enc'
    | 'previous_webhook_key_enc'
    | 'previous_webhook_key_expires_at'
    | 'granted_scopes'
  >,
): Promise<string> {
  const q = await db.query<{ id: string }>(
    `INSERT INTO accounting_connections (tenant_id, company_id, name, client_id, client_secret_enc, redirect_uri, webhook_key_enc,
       down_payment_product_id, payment_journal_id, sales_account_code, deposit_account_code, tax_types, no_tax_type,
       payment_account_code)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
     ON CONFLICT (tenant_id, company_id) DO UPDATE SET name = EXCLUDED.name, client_id = EXCLUDED.client_id,
       client_secret_enc = EXCLUDED.client_secret_enc, redirect_uri = EXCLUDED.redirect_uri, webhook_key_enc = EXCLUDED.webhook_key_enc,
       down_payment_product_id = EXCLUDED.down_payment_product_id, payment_journal_id = EXCLUDED.payment_journal_id,
       sales_account_code = EXCLUDED.sales_account_code, deposit_account_code = EXCLUDED.deposit_account_code,
       tax_types = EXCLUDED.tax_types, no_tax_type = EXCLUDED.no_tax_type,
       payment_account_code = EXCLUDED.payment_account_code, updated_at = now()
     RETURNING id`,
    [
      r.tenant_id,
      r.company_id,
      r.name,
      r.client_id,
      r.client_secret_enc,
      r.redirect_uri,
      r.webhook_key_enc,
      r.down_payment_product_id,
      r.payment_journal_id,
      r.sales_account_code,
      r.deposit_account_code,
      JSON.stringify(r.tax_types),
      r.no_tax_type,
      r.payment_account_code,
    ],
  );
  return q.rows[0]!.id;
}

export async function findAccounting(
  db: Queryable,
  tenantId: string,
  companyId: number,
): Promise<AccountingRow | undefined> {
  return (
    await db.query<AccountingRow>('SELECT * FROM accounting_connections WHERE tenant_id = $1 AND company_id = $2', [
      tenantId,
      companyId,
    ])
  ).rows[0];
}

/** The sealed webhook keys a signature may use: the current one, and the previous one until it expires. */
export function acceptedWebhookKeys(r: AccountingRow, now = new Date()): string[] {
  const previous =
    r.previous_webhook_key_enc && r.previous_webhook_key_expires_at && new Date(r.previous_webhook_key_expires_at) > now
      ? [r.previous_webhook_key_enc]
      : [];
  return [r.webhook_key_enc, ...previous];
}

/** Keeps a replaced secret accepted until `expiresAt` (null clears it). Column pairs are ours, never input. */
export async function setPreviousSecret(
  db: Queryable,
  table: 'accounting_connections' | 'sms_configs',
  tenantId: string,
  companyId: number,
  sealed: string | null,
  expiresAt: Date | null,
): Promise<void> {
  const col = table === 'accounting_connections' ? 'previous_webhook_key' : 'previous_webhook_secret';
  await db.query(
    `UPDATE ${table} SET ${col}_enc = $3, ${col}_expires_at = $4 WHERE tenant_id = $1 AND company_id = $2`,
    [tenantId, companyId, sealed, expiresAt],
  );
}

export async function findAccountingByState(db: Queryable, state: string): Promise<AccountingRow | undefined> {
  return (await db.query<AccountingRow>('SELECT * FROM accounting_connections WHERE oauth_state = $1', [state]))
    .rows[0];
}

export async function updateAccounting(db: Queryable, id: string, patch: Partial<AccountingRow>): Promise<void> {
  const keys = Object.keys(patch);
  if (!keys.length) return;
  // Column names come from our own typed callers, never from input; still, refuse anything odd.
  if (keys.some((k) => !/^[a-z_]+$/.test(k))) throw new Error('bad column name');
  const sets = keys.map((k, i) => `${k} = $${i + 2}`).join(', ');
  await db.query(`UPDATE accounting_connections SET ${sets}, updated_at = now() WHERE id = $1`, [
    id,
    ...keys.map((k) => (patch as Record<string, unknown>)[k]),
  ]);
}

/** Sets tax types by ERP tax id, keeping the others; one statement, so concurrent saves both land. */
export async function mergeTaxTypes(db: Queryable, id: string, taxTypes: Record<string, string>): Promise<void> {
  await db.query(
    `UPDATE accounting_connections SET tax_types = tax_types || $2::jsonb, updated_at = now() WHERE id = $1`,
    [id, JSON.stringify(taxTypes)],
  );
}

export interface SmsConfigRow {
  tenant_id: string;
  company_id: number;
  api_key_enc: string;
  api_secret_enc: string;
  webhook_base_url: string;
  webhook_secret_enc: string | null;
  previous_webhook_secret_enc?: string | null;
  previous_webhook_secret_expires_at?: Date | null;
}

export async function upsertSmsConfig(db: Queryable, r: SmsConfigRow): Promise<void> {
  await db.query(
    `INSERT INTO sms_configs (tenant_id, company_id, api_key_enc, api_secret_enc, webhook_base_url, webhook_secret_enc) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (tenant_id, company_id) DO UPDATE SET api_key_enc = EXCLUDED.api_key_enc, api_secret_enc = EXCLUDED.api_secret_enc,
       webhook_base_url = EXCLUDED.webhook_base_url, webhook_secret_enc = EXCLUDED.webhook_secret_enc, updated_at = now()`,
    [r.tenant_id, r.company_id, r.api_key_enc, r.api_secret_enc, r.webhook_base_url, r.webhook_secret_enc],
  );
}

export async function findSmsConfig(db: Queryable, tenantId: string, companyId = 1): Promise<SmsConfigRow | undefined> {
  return (
    await db.query<SmsConfigRow>('SELECT * FROM sms_configs WHERE tenant_id = $1 AND company_id = $2', [
      tenantId,
      companyId,
    ])
  ).rows[0];
}

export interface SmsLineRow {
  id: string;
  tenant_id: string;
  name: string;
  phone_number: string;
  line_type: 'sales' | 'support' | 'operations';
  is_default: boolean;
}

export async function listSmsLines(db: Queryable, tenantId: string): Promise<SmsLineRow[]> {
  return (
    await db.query<SmsLineRow>(
      'SELECT id, tenant_id, name, phone_number, line_type, is_default FROM sms_lines WHERE tenant_id = $1 ORDER BY created_at, id',
      [tenantId],
    )
  ).rows;
}

export async function insertSmsLine(db: Queryable, r: Omit<SmsLineRow, 'id'>): Promise<string> {
  return (
    await db.query<{ id: string }>(
      `INSERT INTO sms_lines (tenant_id, name, phone_number, line_type, is_default) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (tenant_id, phone_number) DO UPDATE SET name = EXCLUDED.name, line_type = EXCLUDED.line_type RETURNING id`,
      [r.tenant_id, r.name, r.phone_number, r.line_type, r.is_default],
    )
  ).rows[0]!.id;
}

export async function setDefaultLine(db: Queryable, tenantId: string, lineId: string): Promise<void> {
  await db.query('UPDATE sms_lines SET is_default = false WHERE tenant_id = $1 AND is_default AND id <> $2', [
    tenantId,
    lineId,
  ]);
  await db.query('UPDATE sms_lines SET is_default = true WHERE tenant_id = $1 AND id = $2', [tenantId, lineId]);
}

export interface ChatConfigRow {
  tenant_id: string;
  company_id: number;
  webhook_url_enc: string;
  enable_fsm: boolean;
  enable_sales: boolean;
  enable_invoice: boolean;
  enable_po: boolean;
}

export async function upsertChatConfig(db: Queryable, r: ChatConfigRow): Promise<void> {
  await db.query(
    `INSERT INTO chat_configs (tenant_id, company_id, webhook_url_enc, enable_fsm, enable_sales, enable_invoice, enable_po) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (tenant_id, company_id) DO UPDATE SET webhook_url_enc = EXCLUDED.webhook_url_enc, enable_fsm = EXCLUDED.enable_fsm,
       enable_sales = EXCLUDED.enable_sales, enable_invoice = EXCLUDED.enable_invoice, enable_po = EXCLUDED.enable_po, updated_at = now()`,
    [r.tenant_id, r.company_id, r.webhook_url_enc, r.enable_fsm, r.enable_sales, r.enable_invoice, r.enable_po],
  );
}

export async function findChatConfig(
  db: Queryable,
  tenantId: string,
  companyId = 1,
): Promise<ChatConfigRow | undefined> {
  return (
    await db.query<ChatConfigRow>('SELECT * FROM chat_configs WHERE tenant_id = $1 AND company_id = $2', [
      tenantId,
      companyId,
    ])
  ).rows[0];
}
