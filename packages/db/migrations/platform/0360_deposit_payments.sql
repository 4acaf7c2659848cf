-- The deposit a customer pays on the portal after accepting a quote (docs/payments.md, "The deposit
-- on acceptance"), owned by the control plane's payments feature: one row per quote, made with its
-- checkout session on the tenant's connected account, so a second click answers the same session.
-- The amount and currency are what the platform asked; the webhook pays the row only when the
-- provider's session says the same. No card data is stored.
CREATE TABLE deposit_payments (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  quote_id uuid NOT NULL,
  account_id text NOT NULL,
  session_id text NOT NULL UNIQUE,
  checkout_url text NOT NULL,
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'paid')),
  payment_intent_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  paid_at timestamptz,
  PRIMARY KEY (tenant_id, quote_id)
);
SELECT platform_enable_tenant_rls('deposit_payments');
