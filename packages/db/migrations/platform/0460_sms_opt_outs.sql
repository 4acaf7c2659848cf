-- SMS keywords (docs/integrations.md, "SMS keywords"), owned by packages/integrations' SMS module:
-- a number that texted STOP (or UNSUBSCRIBE, CANCEL, END, QUIT) to one of a tenant's lines is never
-- texted by that tenant again until it texts START or UNSTOP. Numbers are E.164 digits without `+`,
-- as sms_messages.contact_number stores them, so the send's check is one equality.
CREATE TABLE sms_opt_outs (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  phone_number text NOT NULL CHECK (phone_number ~ '^[1-9][0-9]{6,14}$'),
  keyword text NOT NULL,
  opted_out_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, phone_number)
);
SELECT platform_enable_tenant_rls('sms_opt_outs');

-- Why a text was not sent (`opted out`), for the office; and the keyword replies (the STOP
-- confirmation, HELP) that go to a number even though it opted out.
ALTER TABLE sms_messages ADD COLUMN refused_reason text;
ALTER TABLE sms_messages ADD COLUMN keyword_reply boolean NOT NULL DEFAULT false;
