-- Accounting that agrees with the provider to the cent (docs/integrations.md "Accounting").
-- Per connection: the provider tax type of each ERP tax (JSON object {"<erp tax id>": "<TaxType>",
-- several taxes on one line keyed by their sorted ids joined with ","}), the tax type of untaxed
-- lines, and the scopes the provider granted at the last connect.
ALTER TABLE accounting_connections ADD COLUMN tax_types jsonb NOT NULL DEFAULT '{}'::jsonb;
ALTER TABLE accounting_connections ADD COLUMN no_tax_type text NOT NULL DEFAULT 'NONE';
ALTER TABLE accounting_connections ADD COLUMN granted_scopes text;

-- ERP partner ↔ provider contact, and how the link was found (our ContactNumber, the same name
-- and email, or created by us).
CREATE TABLE accounting_contacts (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  erp_db text NOT NULL,
  erp_partner_id integer NOT NULL,
  provider_tenant_id text NOT NULL,
  provider_contact_id text NOT NULL,
  matched_by text NOT NULL CHECK (matched_by IN ('contact_number', 'name', 'created')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, erp_db, erp_partner_id, provider_tenant_id)
);

-- What the office must look at: an ambiguous contact, an unmapped tax, totals or residuals that
-- disagree. One open item per record and kind; resolved_at is set when the sync agrees again.
CREATE TABLE accounting_attention (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  erp_db text NOT NULL,
  erp_model text NOT NULL,
  erp_id integer NOT NULL,
  kind text NOT NULL CHECK (kind IN ('ambiguous_contact', 'unmapped_tax', 'total_mismatch', 'residual_mismatch')),
  detail text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  resolved_at timestamptz
);
CREATE UNIQUE INDEX accounting_attention_open ON accounting_attention (tenant_id, erp_db, erp_model, erp_id, kind) WHERE resolved_at IS NULL;

-- Registered provider money: payments and, since 0080, allocated credit notes, prepayments and
-- overpayments (provider_payment_id "<kind>:<id>:<invoice id>"), and payments undone after their
-- deletion at the provider.
ALTER TABLE accounting_payments ADD COLUMN kind text NOT NULL DEFAULT 'payment' CHECK (kind IN ('payment', 'credit_note', 'prepayment', 'overpayment'));
ALTER TABLE accounting_payments ADD COLUMN erp_model text NOT NULL DEFAULT 'account.payment';
ALTER TABLE accounting_payments ADD COLUMN undone_at timestamptz;
