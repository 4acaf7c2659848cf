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
