/** SQL of the ERP money sent to the provider (accounting_erp_money, migration 0400). */
import type { Queryable } from '@platform/db';

export interface MoneyOutKey {
  erpDb: string;
  model: 'account.payment' | 'account.move';
  id: number;
}

export interface MoneyOutRow {
  kind: 'payment' | 'refund' | 'credit_note';
  provider_target_id: string;
  amount: string;
  provider_id: string | null;
  allocated_amount: string | null;
  allocated_at: Date | null;
}

const WHERE = 'tenant_id = $1 AND erp_db = $2 AND erp_model = $3 AND erp_id = $4';
const keyArgs = (tenantId: string, k: MoneyOutKey) => [tenantId, k.erpDb, k.model, k.id];

/** Inserts the claim when absent; returns the row as it stands. */
export async function claimMoneyOut(
  db: Queryable,
  tenantId: string,
  k: MoneyOutKey,
  r: { kind: MoneyOutRow['kind']; target: string; amount: number },
): Promise<MoneyOutRow> {
  await db.query(
    `INSERT INTO accounting_erp_money (tenant_id, erp_db, erp_model, erp_id, kind, provider_target_id, amount)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
    [...keyArgs(tenantId, k), r.kind, r.target, r.amount],
  );
  return (await findMoneyOut(db, tenantId, k))!;
}

export async function findMoneyOut(db: Queryable, tenantId: string, k: MoneyOutKey): Promise<MoneyOutRow | undefined> {
  return (
    await db.query<MoneyOutRow>(
      `SELECT kind, provider_target_id, amount, provider_id, allocated_amount, allocated_at FROM accounting_erp_money WHERE ${WHERE}`,
      keyArgs(tenantId, k),
    )
  ).rows[0];
}

/** The lease for `leaseMs`, when free (or expired) and the work is still to do; false otherwise. */
export async function takeMoneyOutLease(
  db: Queryable,
  tenantId: string,
  k: MoneyOutKey,
  work: 'create' | 'allocate',
  leaseMs: number,
): Promise<boolean> {
  const todo = work === 'create' ? 'provider_id IS NULL' : 'provider_id IS NOT NULL AND allocated_at IS NULL';
  const r = await db.query(
    `UPDATE accounting_erp_money SET lease_until = now() + make_interval(secs => $5::double precision / 1000)
     WHERE ${WHERE} AND ${todo} AND (lease_until IS NULL OR lease_until < now()) RETURNING erp_id`,
    [...keyArgs(tenantId, k), leaseMs],
  );
  return r.rows.length > 0;
}

export async function releaseMoneyOutLease(db: Queryable, tenantId: string, k: MoneyOutKey): Promise<void> {
  await db.query(`UPDATE accounting_erp_money SET lease_until = NULL WHERE ${WHERE}`, keyArgs(tenantId, k));
}

/** The provider's id of what was created; releases the lease. */
export async function setMoneyOutProviderId(
  db: Queryable,
  tenantId: string,
  k: MoneyOutKey,
  providerId: string,
): Promise<void> {
  await db.query(
    `UPDATE accounting_erp_money SET provider_id = $5, pushed_at = now(), lease_until = NULL WHERE ${WHERE}`,
    [...keyArgs(tenantId, k), providerId],
  );
}

/** A credit note's allocation to its invoice is done (`amount` may be 0: nothing was due); releases the lease. */
export async function setMoneyOutAllocated(
  db: Queryable,
  tenantId: string,
  k: MoneyOutKey,
  amount: number,
): Promise<void> {
  await db.query(
    `UPDATE accounting_erp_money SET allocated_amount = $5, allocated_at = now(), lease_until = NULL WHERE ${WHERE}`,
    [...keyArgs(tenantId, k), amount],
  );
}

/** The ERP records of these kinds already sent (the reconciliation skips them). */
export async function listMoneyOut(db: Queryable, tenantId: string, erpDb: string): Promise<MoneyOutKey[]> {
  return (
    await db.query<{ erp_model: MoneyOutKey['model']; erp_id: number }>(
      `SELECT erp_model, erp_id FROM accounting_erp_money WHERE tenant_id = $1 AND erp_db = $2 AND provider_id IS NOT NULL
         AND (erp_model = 'account.payment' OR allocated_at IS NOT NULL)`,
      [tenantId, erpDb],
    )
  ).rows.map((r) => ({ erpDb, model: r.erp_model, id: r.erp_id }));
}

/** Which of these provider ids are of money we sent (so the inbound sync leaves them alone). */
export async function sentProviderIds(db: Queryable, tenantId: string, providerIds: string[]): Promise<Set<string>> {
  if (providerIds.length === 0) return new Set();
  const r = await db.query<{ provider_id: string }>(
    'SELECT provider_id FROM accounting_erp_money WHERE tenant_id = $1 AND provider_id = ANY($2::text[])',
    [tenantId, providerIds],
  );
  return new Set(r.rows.map((x) => x.provider_id));
}
