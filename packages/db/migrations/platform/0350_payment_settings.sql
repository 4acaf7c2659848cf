-- A tenant's payments settings (docs/payments.md), owned by the control plane's payments feature:
-- its connected account at the payments provider (each tenant is its own merchant; the state is what
-- the provider last told us, by the API at connect or by an `account.updated` webhook) and the deposit
-- it asks for when a customer accepts a quote. No card data and no provider secret is stored here.
CREATE TABLE payment_accounts (
  tenant_id uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  provider text NOT NULL DEFAULT 'stripe',
  -- The provider's id (`acct_…`): one tenant per account, so a webhook names at most one tenant.
  account_id text NOT NULL UNIQUE,
  charges_enabled boolean NOT NULL DEFAULT false,
  details_submitted boolean NOT NULL DEFAULT false,
  connected_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
SELECT platform_enable_tenant_rls('payment_accounts');

-- No row: the default rule (50 %). Percent in whole percent; fixed in integer minor units.
CREATE TABLE deposit_rules (
  tenant_id uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('none', 'percent', 'fixed')),
  percent integer CHECK (percent BETWEEN 1 AND 100),
  amount_minor bigint CHECK (amount_minor > 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (
    (kind = 'none' AND percent IS NULL AND amount_minor IS NULL)
    OR (kind = 'percent' AND percent IS NOT NULL AND amount_minor IS NULL)
    OR (kind = 'fixed' AND amount_minor IS NOT NULL AND percent IS NULL)
  )
);
SELECT platform_enable_tenant_rls('deposit_rules');
