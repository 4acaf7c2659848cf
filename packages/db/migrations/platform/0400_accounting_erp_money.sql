-- Money made in the ERP and sent to the accounting provider (docs/integrations.md, "ERP payments and
-- credit notes to the provider"), owned by packages/integrations: one row per ERP record (a customer
-- payment, a refund payment or a credit note), claimed before the provider is called and holding the
-- provider's id once it answered, so a record is created there once, across a lost reply (the call
-- carries an Idempotency-Key too) and two workers (the lease). A credit note also records how much of
-- it was allocated to its invoice (allocated_at: the allocation is done).
CREATE TABLE accounting_erp_money (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  erp_db text NOT NULL,
  erp_model text NOT NULL CHECK (erp_model IN ('account.payment', 'account.move')),
  erp_id integer NOT NULL,
  kind text NOT NULL CHECK (kind IN ('payment', 'refund', 'credit_note')),
  -- The provider invoice it pays or credits, or the provider credit note a refund is paid from.
  provider_target_id text NOT NULL,
  amount numeric(14, 2) NOT NULL,
  provider_id text,
  allocated_amount numeric(14, 2),
  allocated_at timestamptz,
  lease_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  pushed_at timestamptz,
  PRIMARY KEY (tenant_id, erp_db, erp_model, erp_id)
);
CREATE INDEX accounting_erp_money_target ON accounting_erp_money (tenant_id, provider_target_id);
SELECT platform_enable_tenant_rls('accounting_erp_money');

-- The provider's bank account ERP payments and refunds are recorded on (Xero: an account of type
-- BANK, or one with payments enabled); 090 is the bank account of Xero's demo company.
ALTER TABLE accounting_connections ADD COLUMN payment_account_code text NOT NULL DEFAULT '090';
