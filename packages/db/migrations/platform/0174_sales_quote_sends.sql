-- Each "Send to customer" of a quote (docs/control-plane.md, "Sending a quote"): keyed by the
-- request's Idempotency-Key, so a retried send finds its row and emails and texts nothing again.
-- Written in the same transaction as the email and SMS it queued.
CREATE TABLE sales_quote_sends (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  quote_id uuid NOT NULL REFERENCES sales_quotes (id) ON DELETE CASCADE,
  send_key text NOT NULL,
  portal_link_id uuid NOT NULL,
  emailed_to text,
  texted_to text,
  created_by uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, quote_id, send_key)
);
SELECT platform_enable_tenant_rls('sales_quote_sends');
