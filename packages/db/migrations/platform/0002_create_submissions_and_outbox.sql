-- Every accepted public submission, with all its attribution, and the outbox row that delivers it.
-- Both are written in one transaction before the visitor gets an answer.
CREATE TABLE submissions (
  id uuid PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  kind text NOT NULL CHECK (kind IN ('estimate', 'helpdesk')),
  form_source text,
  form_source_parsed jsonb,
  attribution jsonb NOT NULL DEFAULT '{}',
  payload jsonb NOT NULL,
  fingerprint text NOT NULL,
  client_ip text,
  user_agent text,
  gpc boolean NOT NULL DEFAULT false,
  erp_model text,
  erp_id integer,
  delivered_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX submissions_recent_fingerprint ON submissions (tenant_id, fingerprint, created_at DESC);

CREATE TABLE outbox (
  id bigserial PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  topic text NOT NULL,
  aggregate_id text,
  -- Optional key that makes an event unique per tenant (used by feeds that must emit once).
  dedupe_key text,
  payload jsonb NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'processing', 'done', 'dead')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  locked_by text,
  locked_at timestamptz,
  last_error text,
  result jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  done_at timestamptz
);
CREATE INDEX outbox_ready ON outbox (next_attempt_at, id) WHERE status = 'pending';
CREATE INDEX outbox_claimed ON outbox (locked_at) WHERE status = 'processing';
CREATE UNIQUE INDEX outbox_dedupe ON outbox (tenant_id, dedupe_key) WHERE dedupe_key IS NOT NULL;

-- Stored answers for requests that carried an Idempotency-Key (scoped per tenant and route).
CREATE TABLE idempotency_keys (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  route text NOT NULL,
  key text NOT NULL,
  fingerprint text NOT NULL,
  status_code integer NOT NULL,
  response jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, route, key)
);
