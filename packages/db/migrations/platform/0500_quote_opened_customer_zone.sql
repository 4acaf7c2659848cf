-- When the customer first opened a quote's portal link (docs/messages.md, "Quote follow-ups"), owned
-- by the control plane's portal feature: set once by the portal's view, after the ERP answered, so a
-- view the ERP refused leaves the table unchanged. The quote follow-up reads it to say "not opened"
-- or "opened, not accepted".
ALTER TABLE portal_tokens ADD COLUMN first_opened_at timestamptz;

-- A customer's own time zone (docs/messages.md, "Time zones"), owned by the messages feature beside
-- the channel preference: quiet hours are kept in it, the tenant's when null. Set alone, the channel
-- stays the default (both).
ALTER TABLE customer_channel_prefs ADD COLUMN time_zone text;
ALTER TABLE customer_channel_prefs ALTER COLUMN channel SET DEFAULT 'both';
