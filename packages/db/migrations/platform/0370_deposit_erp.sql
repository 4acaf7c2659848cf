-- The deposit's ERP side (docs/payments.md, "The deposit in the ERP"): a paid deposit row is
-- recorded in the tenant's ERP once (the order confirmed, a down-payment invoice posted and paid)
-- by one outbox job; the ids it made are kept here so a retry resumes instead of redoing. The
-- office may record a cash, check or bank deposit itself: such a row has no checkout session.
ALTER TABLE deposit_payments
  ADD COLUMN method text NOT NULL DEFAULT 'card' CHECK (method IN ('card', 'cash', 'check', 'bank')),
  ADD COLUMN reference text,
  ADD COLUMN sale_order_id integer,
  ADD COLUMN invoice_id integer,
  ADD COLUMN erp_payment_id integer,
  ADD COLUMN erp_recorded_at timestamptz,
  ALTER COLUMN account_id DROP NOT NULL,
  ALTER COLUMN session_id DROP NOT NULL,
  ALTER COLUMN checkout_url DROP NOT NULL,
  ADD CONSTRAINT deposit_payments_card_session CHECK (method <> 'card' OR (session_id IS NOT NULL AND account_id IS NOT NULL AND checkout_url IS NOT NULL));

-- The reconciliation of lost webhooks looks for the open card deposits of each account.
CREATE INDEX deposit_payments_open ON deposit_payments (account_id, created_at) WHERE status = 'open';
