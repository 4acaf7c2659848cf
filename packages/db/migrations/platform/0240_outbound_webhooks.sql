-- Outbound webhooks (docs/control-plane.md, "Outbound webhooks"): a tenant's endpoints, each with
-- its signing secret sealed by the secret box, and one delivery row per event and endpoint, which is
-- the delivery log. The outbox carries the work; these rows carry what the tenant sees.
CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  url varchar(2000) NOT NULL,
  description varchar(200),
  events text[] NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  -- Why it was disabled: 'owner' (switched off) or 'gone' (the receiver answered 410).
  disabled_reason text,
  secret_enc text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_tenant ON webhook_endpoints (tenant_id, created_at);
SELECT platform_enable_tenant_rls('webhook_endpoints');

CREATE TABLE webhook_deliveries (
  id bigserial PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_key text NOT NULL,
  event_type text NOT NULL,
  -- The `webhook-id` header: the same on every attempt and replay, so receivers can de-duplicate.
  webhook_id text NOT NULL,
  occurred_at timestamptz NOT NULL,
  data jsonb NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  last_status_code integer,
  last_duration_ms integer,
  last_error text,
  last_attempt_at timestamptz,
  -- First delivered or given up: later deliveries to the endpoint wait until this is set (order).
  settled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (endpoint_id, event_key)
);
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (endpoint_id, id DESC);
CREATE INDEX webhook_deliveries_unsettled ON webhook_deliveries (endpoint_id, id) WHERE settled_at IS NULL;
SELECT platform_enable_tenant_rls('webhook_deliveries');
GRANT USAGE, SELECT ON SEQUENCE webhook_deliveries_id_seq TO platform_app;
