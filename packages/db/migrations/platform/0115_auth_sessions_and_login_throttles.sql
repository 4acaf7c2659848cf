-- Sign-in sessions of the control plane (docs/control-plane.md, "Accounts").
--
-- A session is one refresh-token family: it starts at sign-in (or when an invitation is accepted)
-- and every refresh replaces its token by a new one. Presenting a token that was already replaced
-- revokes the whole session (reuse detection). Access tokens name their session (`sid`), so a
-- revoked session also stops its access tokens at once (auth.guard.ts).
CREATE TABLE auth_sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  user_id uuid NOT NULL REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  -- The absolute end of the session, however often it is refreshed.
  absolute_expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  revoked_reason text CHECK (revoked_reason IN ('logout', 'logout_all', 'reuse', 'password_reset', 'removed')),
  ip inet,
  user_agent varchar(300)
);
CREATE INDEX auth_sessions_user ON auth_sessions (tenant_id, user_id) WHERE revoked_at IS NULL;
CREATE INDEX auth_sessions_user_all ON auth_sessions (user_id) WHERE revoked_at IS NULL;
SELECT platform_enable_tenant_rls('auth_sessions');

-- Refresh tokens are opaque random strings; only their SHA-256 is kept.
CREATE TABLE refresh_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  session_id uuid NOT NULL REFERENCES auth_sessions (id),
  token_hash bytea NOT NULL UNIQUE CHECK (octet_length(token_hash) = 32),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  -- Set when the token was exchanged for its successor; presenting it again is reuse.
  rotated_at timestamptz
);
CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id);
SELECT platform_enable_tenant_rls('refresh_tokens');

-- Failed sign-ins per account (keyed by a hash of the email typed, whether or not an account has it)
-- and per client address, shared by every replica. Not tenant-owned: sign-in happens before a
-- tenant is known.
CREATE TABLE login_throttles (
  key text PRIMARY KEY,
  failures integer NOT NULL CHECK (failures >= 0),
  last_failure_at timestamptz NOT NULL,
  locked_until timestamptz
);
CREATE INDEX login_throttles_last ON login_throttles (last_failure_at);
