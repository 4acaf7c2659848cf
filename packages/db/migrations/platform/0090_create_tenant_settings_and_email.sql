-- Tenant settings as the spec lists them (branding, contact, social, SEO, features) plus the tenant's
-- email settings in one JSON column. The control plane will own this table; until then only
-- packages/email/src/tenant-settings.repo.ts reads and writes it.
CREATE TABLE tenant_settings (
  tenant_id uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  company_name varchar(100),
  logo_url varchar(255),
  favicon_url varchar(255),
  primary_color varchar(7) CHECK (primary_color ~ '^#[0-9A-Fa-f]{6}$'),
  secondary_color varchar(7) CHECK (secondary_color ~ '^#[0-9A-Fa-f]{6}$'),
  phone varchar(20),
  email varchar(100),
  address text,
  social_facebook varchar(255),
  social_instagram varchar(255),
  meta_title varchar(100),
  meta_description varchar(255),
  helpdesk_enabled boolean NOT NULL DEFAULT true,
  portal_enabled boolean NOT NULL DEFAULT true,
  -- {from_name, from_local_part, reply_to, domain: {name, status, dkim_selector, dkim_public_key, ...}}
  email_settings jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(email_settings) = 'object'),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- One sending domain belongs to one tenant.
CREATE UNIQUE INDEX tenant_settings_sending_domain ON tenant_settings ((lower(email_settings #>> '{domain,name}')))
  WHERE email_settings #>> '{domain,name}' IS NOT NULL;

-- One row per email the platform accepted to send: the idempotency key makes a message unique per
-- tenant, so a retried request or redelivered outbox row never sends to a recipient twice.
CREATE TABLE email_messages (
  id uuid PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  message_key text NOT NULL,
  lane text NOT NULL CHECK (lane IN ('transactional', 'bulk')),
  template text,
  to_address text NOT NULL,
  from_address text NOT NULL,
  subject text NOT NULL,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'suppressed', 'failed')),
  provider text,
  provider_message_id text,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  UNIQUE (tenant_id, message_key)
);
CREATE INDEX email_messages_provider_id ON email_messages (provider_message_id) WHERE provider_message_id IS NOT NULL;

-- The suppression list shared by every provider and service. A hard bounce suppresses the address
-- for the tenant whose mail bounced; a complaint suppresses it platform-wide (scope 'platform').
-- tenant_id is always the tenant whose mail caused the entry. Lifting keeps the row (lifted_at).
CREATE TABLE email_suppressions (
  id bigserial PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  email text NOT NULL CHECK (email = lower(email)),
  scope text NOT NULL CHECK (scope IN ('tenant', 'platform')),
  reason text NOT NULL CHECK (reason IN ('hard_bounce', 'complaint', 'inactive_recipient')),
  provider text NOT NULL,
  provider_event_id text,
  detail jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  lifted_at timestamptz,
  lifted_by text
);
CREATE UNIQUE INDEX email_suppressions_active ON email_suppressions (tenant_id, email, scope) WHERE lifted_at IS NULL;
CREATE INDEX email_suppressions_email ON email_suppressions (email) WHERE lifted_at IS NULL;
