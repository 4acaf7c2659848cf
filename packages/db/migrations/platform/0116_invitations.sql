-- Invitations of people into a tenant with a role (docs/control-plane.md, "Accounts"). The emailed
-- token is single-use and expiring; only its SHA-256 is kept. A new invitation of the same address
-- into the same tenant revokes the pending one.
CREATE TABLE invitations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  email varchar(254) NOT NULL CHECK (email = lower(email)),
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'office', 'technician')),
  token_hash bytea NOT NULL UNIQUE CHECK (octet_length(token_hash) = 32),
  invited_by uuid REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  accepted_by uuid REFERENCES users (id),
  revoked_at timestamptz
);
CREATE INDEX invitations_pending ON invitations (tenant_id, email) WHERE accepted_at IS NULL AND revoked_at IS NULL;
SELECT platform_enable_tenant_rls('invitations');
