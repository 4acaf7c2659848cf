-- The final invoice of a completed job and its balance paid from a link (docs/payments.md, "Final
-- invoice"), owned by the control plane's invoicing feature. The ERP is the system of record: these
-- rows only remember which ERP invoice a job became, the customer's pay links, the card checkouts
-- asked for an invoice's residual, and the tenant's "invoice on completion" switch. No card data.

-- One final invoice per job: `making_until` is the lease of the request making it in the ERP (a
-- request that finds a lapsed lease looks for the invoice in the ERP before making another).
CREATE TABLE job_invoices (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  job_id uuid NOT NULL,
  sale_order_id integer NOT NULL CHECK (sale_order_id > 0),
  invoice_id integer CHECK (invoice_id > 0),
  making_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, job_id)
);
SELECT platform_enable_tenant_rls('job_invoices');

-- A customer's link to pay an invoice: only the token's SHA-256 is kept; it expires.
CREATE TABLE invoice_pay_links (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  token_hash text NOT NULL,
  invoice_id integer NOT NULL CHECK (invoice_id > 0),
  emailed_to text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, token_hash)
);
SELECT platform_enable_tenant_rls('invoice_pay_links');

-- A card checkout for an invoice's residual at the time it was asked (one per invoice and amount).
CREATE TABLE invoice_checkouts (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  session_id text NOT NULL,
  invoice_id integer NOT NULL CHECK (invoice_id > 0),
  account_id text NOT NULL,
  checkout_url text NOT NULL,
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'paid')),
  payment_intent_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  paid_at timestamptz,
  PRIMARY KEY (tenant_id, session_id),
  UNIQUE (tenant_id, invoice_id, amount_minor, currency)
);
SELECT platform_enable_tenant_rls('invoice_checkouts');

-- "Invoice automatically when an install job completes" (off when there is no row).
CREATE TABLE invoicing_settings (
  tenant_id uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  auto_invoice boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now()
);
SELECT platform_enable_tenant_rls('invoicing_settings');
