-- TLS certificates for tenant custom domains (spec: "Tenant domain `ssl_status`"; docs/certificates.md).
-- certificate_candidates: domains a tenant added and proved (CNAME seen). The control plane will feed
-- the CertificateCandidates port from tenant_domains; until then this table is that source.
CREATE TABLE certificate_candidates (
  domain text PRIMARY KEY CHECK (domain = lower(domain)),
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  proved_at timestamptz NOT NULL DEFAULT now()
);

-- One row per domain: the current certificate (PEM chain), its private key sealed with packages/secrets
-- (AAD binds it to tenant and domain), and the issuance state machine with its backoff.
CREATE TABLE certificates (
  domain text PRIMARY KEY CHECK (domain = lower(domain)),
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'active', 'failed')),
  cert_pem text,
  private_key_enc text,
  not_before timestamptz,
  not_after timestamptz,
  renew_at timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX certificates_due ON certificates (next_attempt_at);

-- http-01 challenge answers, written by the issuer and read by the public challenge route. Rows
-- expire; the token is unguessable (chosen by the ACME server).
CREATE TABLE acme_challenges (
  token text PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  domain text NOT NULL,
  key_authorization text NOT NULL,
  expires_at timestamptz NOT NULL
);

-- The ACME account key per directory (one account, reused: CAs limit new accounts per address).
CREATE TABLE acme_accounts (
  directory_url text PRIMARY KEY,
  account_key_enc text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
