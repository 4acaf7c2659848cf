-- Email verification of self-serve sign-ups (docs/control-plane.md, "Sign-up"). Every account that
-- exists already, and every account made later by the CLI, the operator API or an accepted
-- invitation, counts as verified (the column's default); only a sign-up sets it to null until its
-- owner opens the emailed link.
ALTER TABLE users ADD COLUMN email_verified_at timestamptz DEFAULT now();

-- The emailed link: single-use, expiring, kept only as the SHA-256 of its token.
CREATE TABLE email_verifications (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  user_id uuid NOT NULL REFERENCES users (id),
  token_hash bytea NOT NULL UNIQUE CHECK (octet_length(token_hash) = 32),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX email_verifications_user ON email_verifications (user_id) WHERE used_at IS NULL;
SELECT platform_enable_tenant_rls('email_verifications');
