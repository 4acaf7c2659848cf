-- Webhooks that can be trusted (docs/integrations.md, "Webhook trust").
-- 1. Replay cache of webhook signatures: the SMS provider signs only secret|url|type|timestamp, not
--    the body, so one captured signature must not be reusable for other messages. `subject` is
--    what the signature was used for (the provider's message id).
CREATE TABLE webhook_signatures (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  provider text NOT NULL,
  signature text NOT NULL,
  subject text NOT NULL,
  seen_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, provider, signature, subject)
);
CREATE INDEX webhook_signatures_seen_at ON webhook_signatures (seen_at);

-- 2. Secret rotation with an overlap: the secret replaced last stays accepted until it expires.
ALTER TABLE sms_configs ADD COLUMN previous_webhook_secret_enc text;
ALTER TABLE sms_configs ADD COLUMN previous_webhook_secret_expires_at timestamptz;
ALTER TABLE accounting_connections ADD COLUMN previous_webhook_key_enc text;
ALTER TABLE accounting_connections ADD COLUMN previous_webhook_key_expires_at timestamptz;

-- 3. The chatter message (ERP mail.message id) an inbound SMS was posted as.
ALTER TABLE sms_messages ADD COLUMN erp_message_id integer;
