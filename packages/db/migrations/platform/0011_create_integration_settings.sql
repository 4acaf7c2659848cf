-- ERP-side integration settings, per tenant and ERP company (spec: "Accounting connection", "SMS
-- configuration", "SMS phone line", "Team-chat configuration"). Columns ending in _enc hold secrets
-- sealed with AES-256-GCM (packages/secrets): never plaintext.
CREATE TABLE accounting_connections (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  company_id integer NOT NULL DEFAULT 1,
  name text NOT NULL,
  client_id text NOT NULL,
  client_secret_enc text NOT NULL,
  redirect_uri text NOT NULL,
  webhook_key_enc text NOT NULL,
  down_payment_product_id integer,
  payment_journal_id integer,
  sales_account_code text NOT NULL DEFAULT '200',
  deposit_account_code text NOT NULL DEFAULT '835',
  status text NOT NULL DEFAULT 'disconnected' CHECK (status IN ('disconnected', 'connecting', 'connected', 'needs_reconnect')),
  status_detail text,
  provider_tenant_id text,
  provider_tenant_name text,
  access_token_enc text,
  refresh_token_enc text,
  token_expires_at timestamptz,
  oauth_state text,
  code_verifier_enc text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, company_id)
);
CREATE UNIQUE INDEX accounting_connections_state ON accounting_connections (oauth_state) WHERE oauth_state IS NOT NULL;

CREATE TABLE sms_configs (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  company_id integer NOT NULL DEFAULT 1,
  api_key_enc text NOT NULL,
  api_secret_enc text NOT NULL,
  webhook_base_url text NOT NULL,
  webhook_secret_enc text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, company_id)
);

CREATE TABLE sms_lines (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  name text NOT NULL,
  phone_number text NOT NULL CHECK (phone_number ~ '^[1-9][0-9]{6,14}$'),
  line_type text NOT NULL CHECK (line_type IN ('sales', 'support', 'operations')),
  is_default boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, phone_number)
);
-- Exactly one default line per tenant (at most one here; the service makes the first line the default).
CREATE UNIQUE INDEX sms_lines_one_default ON sms_lines (tenant_id) WHERE is_default;

CREATE TABLE chat_configs (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  company_id integer NOT NULL DEFAULT 1,
  webhook_url_enc text NOT NULL,
  enable_fsm boolean NOT NULL DEFAULT false,
  enable_sales boolean NOT NULL DEFAULT false,
  enable_invoice boolean NOT NULL DEFAULT false,
  enable_po boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, company_id)
);

-- SMS sent and received, with the provider's id and delivery status.
CREATE TABLE sms_messages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  direction text NOT NULL CHECK (direction IN ('outbound', 'inbound')),
  line_number text NOT NULL,
  contact_number text NOT NULL,
  body text NOT NULL,
  provider_message_id text,
  status text NOT NULL,
  erp_model text,
  erp_id integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX sms_messages_provider_id ON sms_messages (tenant_id, provider_message_id) WHERE provider_message_id IS NOT NULL;

-- Webhook deliveries already handled (provider, event id): replays and retries have no effect.
CREATE TABLE webhook_receipts (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  provider text NOT NULL,
  event_id text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, provider, event_id)
);

-- ERP invoices sent to the accounting provider, and provider payments registered in the ERP.
CREATE TABLE accounting_invoices (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  erp_db text NOT NULL,
  erp_invoice_id integer NOT NULL,
  provider_invoice_id text NOT NULL,
  provider_invoice_number text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, erp_db, erp_invoice_id),
  UNIQUE (tenant_id, provider_invoice_id)
);

CREATE TABLE accounting_payments (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  provider_payment_id text NOT NULL,
  provider_invoice_id text NOT NULL,
  erp_payment_id integer,
  amount numeric(14, 2) NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, provider_payment_id)
);
