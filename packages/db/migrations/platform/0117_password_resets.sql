-- Password resets (docs/control-plane.md, "Accounts"): an emailed single-use link, expiring, whose
-- token is kept only as its SHA-256. The tenant is the one whose branding the email carried and
-- whose audit log records the reset; the password itself is the account's, across tenants.
CREATE TABLE password_resets (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  user_id uuid NOT NULL REFERENCES users (id),
  token_hash bytea NOT NULL UNIQUE CHECK (octet_length(token_hash) = 32),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  ip inet
);
CREATE INDEX password_resets_user ON password_resets (user_id) WHERE used_at IS NULL;
SELECT platform_enable_tenant_rls('password_resets');
