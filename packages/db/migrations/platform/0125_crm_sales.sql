-- Sales on the control plane (docs/control-plane.md, "Quotes and price grids", "Customer portal links"):
-- the tenant's price grids, the quotes the platform created in the tenant's ERP, and the customer
-- portal links of those quotes. Every table is tenant-owned and under row-level security.

-- One grid per product code: widths × drops (inches, ascending) with a price per cell, priced options
-- and the allowance an outside mount adds to each measurement.
CREATE TABLE price_grids (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  product_code varchar(40) NOT NULL CHECK (product_code ~ '^[a-z0-9][a-z0-9_-]{0,39}$'),
  name varchar(100) NOT NULL,
  bands jsonb NOT NULL CHECK (jsonb_typeof(bands) = 'object'),
  options jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(options) = 'array'),
  mount_allowance_in jsonb NOT NULL DEFAULT '{"inside": 0, "outside": 0}' CHECK (jsonb_typeof(mount_allowance_in) = 'object'),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, product_code)
);
SELECT platform_enable_tenant_rls('price_grids');

-- Marks a tenant whose default grids were seeded, so a tenant that later replaces them is not
-- re-seeded (seeding happens once, on first use).
CREATE TABLE price_grid_seeds (
  tenant_id uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  seeded_at timestamptz NOT NULL DEFAULT now()
);
SELECT platform_enable_tenant_rls('price_grid_seeds');

-- A quote made through the platform: written (with its priced lines) before the ERP is called, so
-- a retry with the same Idempotency-Key finds it and finishes it instead of making a second order.
-- `erp_order_id` is set once the ERP's sale.order exists; its description carries the quote id.
CREATE TABLE sales_quotes (
  id uuid PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  idempotency_key text,
  fingerprint text NOT NULL,
  request jsonb NOT NULL,
  erp_order_id integer,
  -- A lease while one request makes the ERP order, so two racing retries never both create it.
  making_until timestamptz,
  created_by uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, idempotency_key)
);
CREATE INDEX sales_quotes_tenant_created ON sales_quotes (tenant_id, created_at DESC);
CREATE UNIQUE INDEX sales_quotes_erp_order ON sales_quotes (tenant_id, erp_order_id) WHERE erp_order_id IS NOT NULL;
SELECT platform_enable_tenant_rls('sales_quotes');

-- Customer portal links: only the SHA-256 of the token is kept; scoped to one quote and an action
-- set, expiring, revocable. Acceptance (name, signature key) is recorded on the link that was used.
CREATE TABLE portal_tokens (
  id uuid PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  quote_id uuid NOT NULL REFERENCES sales_quotes (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  actions text[] NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  created_by uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  accepted_at timestamptz,
  accepted_name varchar(100),
  signature_key text
);
CREATE INDEX portal_tokens_quote ON portal_tokens (tenant_id, quote_id);
SELECT platform_enable_tenant_rls('portal_tokens');
