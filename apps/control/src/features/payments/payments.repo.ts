/**
 * SQL of `payment_accounts` and `deposit_rules` (migration 0350): the tenant's connected account at
 * the payments provider and its deposit rule. Tenant-scoped calls take the transaction of withTenant;
 * `tenantOfAccount` is the webhook's one cross-tenant read (as the owning role, like the outbox relay).
 */
import type { Queryable } from '@platform/db';

export interface PaymentAccountRow {
  account_id: string;
  charges_enabled: boolean;
  details_submitted: boolean;
  connected_at: Date;
  updated_at: Date;
}

export interface DepositRuleRow {
  kind: 'none' | 'percent' | 'fixed';
  percent: number | null;
  amount_minor: number | null;
}

export async function findPaymentAccount(tx: Queryable, tenantId: string): Promise<PaymentAccountRow | undefined> {
  const r = await tx.query<PaymentAccountRow>(
    `SELECT account_id, charges_enabled, details_submitted, connected_at, updated_at
       FROM payment_accounts WHERE tenant_id = $1`,
    [tenantId],
  );
  return r.rows[0];
}

/** Keeps the first account made for the tenant: a second connect that raced the first loses. */
export async function insertPaymentAccount(
  tx: Queryable,
  tenantId: string,
  a: { accountId: string; chargesEnabled: boolean; detailsSubmitted: boolean },
): Promise<PaymentAccountRow> {
  await tx.query(
    `INSERT INTO payment_accounts (tenant_id, account_id, charges_enabled, details_submitted)
     VALUES ($1, $2, $3, $4) ON CONFLICT (tenant_id) DO NOTHING`,
    [tenantId, a.accountId, a.chargesEnabled, a.detailsSubmitted],
  );
  return (await findPaymentAccount(tx, tenantId))!;
}

/** False when the tenant has no such account (it was replaced, or never was). */
export async function updatePaymentAccountState(
  tx: Queryable,
  tenantId: string,
  accountId: string,
  s: { chargesEnabled: boolean; detailsSubmitted: boolean },
): Promise<boolean> {
  const r = await tx.query(
    `UPDATE payment_accounts SET charges_enabled = $3, details_submitted = $4, updated_at = now()
      WHERE tenant_id = $1 AND account_id = $2`,
    [tenantId, accountId, s.chargesEnabled, s.detailsSubmitted],
  );
  return r.rowCount > 0;
}

/** Which tenant holds a provider account: run on the owning role (a webhook names no tenant). */
export async function tenantOfAccount(db: Queryable, accountId: string): Promise<string | undefined> {
  const r = await db.query<{ tenant_id: string }>('SELECT tenant_id FROM payment_accounts WHERE account_id = $1', [
    accountId,
  ]);
  return r.rows[0]?.tenant_id;
}

export async function findDepositRule(tx: Queryable, tenantId: string): Promise<DepositRuleRow | undefined> {
  const r = await tx.query<DepositRuleRow & { amount_minor: string | number | null }>(
    'SELECT kind, percent, amount_minor FROM deposit_rules WHERE tenant_id = $1',
    [tenantId],
  );
  const row = r.rows[0];
  // bigint arrives as a string from pg; the cap keeps it well inside a safe integer.
  return row && { ...row, amount_minor: row.amount_minor === null ? null : Number(row.amount_minor) };
}

export async function saveDepositRule(tx: Queryable, tenantId: string, rule: DepositRuleRow): Promise<void> {
  await tx.query(
    `INSERT INTO deposit_rules (tenant_id, kind, percent, amount_minor) VALUES ($1, $2, $3, $4)
     ON CONFLICT (tenant_id) DO UPDATE
       SET kind = EXCLUDED.kind, percent = EXCLUDED.percent, amount_minor = EXCLUDED.amount_minor, updated_at = now()`,
    [tenantId, rule.kind, rule.percent, rule.amount_minor],
  );
}
