-- Card refunds mirrored in the ERP (docs/payments.md, "Refunds"), owned by the control plane's
-- invoicing feature: one row per provider refund, whoever made it (the office's "Refund to the card",
-- or the provider's dashboard announced by `refund.created`). The office's request and the webhook's
-- job both claim the row before writing the credit note and the refund payment in the ERP, so the
-- same refund is written once (`lease_until`: the writer's lease; a lapsed one is taken over and
-- finds the ERP records by their ref first). `credit_note_id` set: the ERP holds it.
CREATE TABLE card_refunds (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  refund_id text NOT NULL,
  payment_intent_id text NOT NULL,
  invoice_id integer NOT NULL CHECK (invoice_id > 0),
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  source text NOT NULL CHECK (source IN ('office', 'provider')),
  credit_note_id integer CHECK (credit_note_id > 0),
  lease_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  mirrored_at timestamptz,
  PRIMARY KEY (tenant_id, refund_id)
);
SELECT platform_enable_tenant_rls('card_refunds');

-- Receipts of a purchase order (docs/control-plane.md, "Supplier orders"), owned by the control
-- plane's supply feature: the lease a receipt holds while it writes the received quantities in the
-- ERP, so two receipts of the same order (a double click on two screens, a retry racing the first)
-- are written one after the other: the second replays the first's answer under the same key, or is
-- measured against what the first received.
CREATE TABLE purchase_order_receipts (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  purchase_order_id integer NOT NULL CHECK (purchase_order_id > 0),
  lease_until timestamptz,
  PRIMARY KEY (tenant_id, purchase_order_id)
);
SELECT platform_enable_tenant_rls('purchase_order_receipts');
