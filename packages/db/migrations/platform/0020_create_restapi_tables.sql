-- The ERP host's REST API (docs/rest-api.md): per-user API keys, OAuth2 applications, authorization
-- codes, access and refresh tokens, and the audit trail. No secret is stored in clear: keys, client
-- secrets, codes and tokens are kept as SHA-256 of a >=128-bit random value.
CREATE TABLE restapi_keys (
  id bigserial PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  login text NOT NULL,
  description text NOT NULL,
  prefix text NOT NULL CHECK (length(prefix) = 8),
  key_hash text NOT NULL UNIQUE,
  scopes text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX restapi_keys_tenant ON restapi_keys (tenant_id, id);

CREATE TABLE restapi_oauth_apps (
  id bigserial PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  name text NOT NULL,
  client_id text NOT NULL UNIQUE,
  client_secret_hash text NOT NULL,
  -- One URI per line, compared as exact strings.
  redirect_uris text NOT NULL,
  scopes text NOT NULL,
  -- When set, only this ERP user may approve the application (a dedicated API user).
  run_as_login text,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);

CREATE TABLE restapi_oauth_codes (
  id bigserial PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  code_hash text NOT NULL UNIQUE,
  app_id bigint NOT NULL REFERENCES restapi_oauth_apps (id) ON DELETE CASCADE,
  login text NOT NULL,
  redirect_uri text NOT NULL,
  scopes text NOT NULL,
  code_challenge text NOT NULL,
  -- Every token issued from this code carries the same family id.
  family_id uuid NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX restapi_oauth_codes_expiry ON restapi_oauth_codes (expires_at);

CREATE TABLE restapi_oauth_tokens (
  id bigserial PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  kind text NOT NULL CHECK (kind IN ('access', 'refresh')),
  token_hash text NOT NULL UNIQUE,
  app_id bigint NOT NULL REFERENCES restapi_oauth_apps (id) ON DELETE CASCADE,
  login text NOT NULL,
  scopes text NOT NULL,
  family_id uuid NOT NULL,
  expires_at timestamptz NOT NULL,
  -- A refresh token is used once: rotation sets used_at; presenting it again revokes the family.
  used_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX restapi_oauth_tokens_family ON restapi_oauth_tokens (family_id);

CREATE TABLE restapi_audit_events (
  id bigserial PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  event text NOT NULL CHECK (event IN ('key_created', 'key_revoked', 'auth_failed', 'token_family_revoked',
    'app_created', 'app_revoked', 'app_secret_rotated', 'consent_granted')),
  key_id bigint,
  app_id bigint,
  login text,
  client_ip text,
  detail jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX restapi_audit_events_recent ON restapi_audit_events (tenant_id, created_at DESC);
