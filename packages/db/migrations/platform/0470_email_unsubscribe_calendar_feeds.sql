-- One-click unsubscribe (RFC 8058; docs/email.md, "Unsubscribe"), owned by packages/email: a
-- reminder or follow-up carries a random token (only its SHA-256 is kept here) in its unsubscribe
-- link and List-Unsubscribe header; a POST to it adds an `unsubscribed` entry to the tenant's
-- suppression list, which blocks that tenant's non-transactional mail only (a message with a token),
-- never its receipts or password resets.
ALTER TABLE email_messages ADD COLUMN unsubscribe_token_hash text;
CREATE UNIQUE INDEX email_messages_unsubscribe_token ON email_messages (unsubscribe_token_hash)
  WHERE unsubscribe_token_hash IS NOT NULL;
ALTER TABLE email_suppressions DROP CONSTRAINT email_suppressions_reason_check;
ALTER TABLE email_suppressions ADD CONSTRAINT email_suppressions_reason_check
  CHECK (reason IN ('hard_bounce', 'complaint', 'inactive_recipient', 'unsubscribed'));

-- Technicians' calendar feeds (docs/control-plane.md, "Calendar feed"), owned by the control plane's
-- calendar feature: one secret feed URL per technician, its random token kept only as its SHA-256.
-- Rotating replaces the hash (the old URL stops at once); revoking deletes the row (the URL answers 404).
CREATE TABLE calendar_feeds (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, user_id)
);
SELECT platform_enable_tenant_rls('calendar_feeds');
