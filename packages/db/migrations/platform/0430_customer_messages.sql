-- Customer messages (docs/messages.md), owned by the control plane's messages feature: confirmations,
-- reminders, "on my way", job done, review requests, quote follow-ups, ready to fit and invoice
-- reminders, sent by text (the `sms.send` outbox) and email (the email outbox) without anyone typing.

-- The tenant's options: the reminder's local hour, the review link and delays (defaults when no row).
CREATE TABLE message_settings (
  tenant_id uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  reminder_hour smallint NOT NULL DEFAULT 17 CHECK (reminder_hour BETWEEN 0 AND 23),
  review_link text,
  review_delay_hours smallint NOT NULL DEFAULT 2 CHECK (review_delay_hours BETWEEN 0 AND 720),
  quote_follow_up_days smallint NOT NULL DEFAULT 3 CHECK (quote_follow_up_days BETWEEN 1 AND 90),
  invoice_reminder_days smallint NOT NULL DEFAULT 7 CHECK (invoice_reminder_days BETWEEN 1 AND 90),
  updated_at timestamptz NOT NULL DEFAULT now()
);
SELECT platform_enable_tenant_rls('message_settings');

-- A kind turned on or off, with the tenant's own templates (the built-in ones when null).
CREATE TABLE message_kinds (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  kind text NOT NULL,
  enabled boolean NOT NULL,
  sms_template text,
  email_subject text,
  email_template text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, kind)
);
SELECT platform_enable_tenant_rls('message_kinds');

-- What is to be sent: one row per (subject, kind). A new trigger replaces the due time and bumps the
-- version (a job moved three times has one reminder, for the last time); cancelling cancels. The
-- sender claims due rows with FOR UPDATE SKIP LOCKED and queues the text and email in the same
-- transaction that marks the row sent, so two senders or a crash never send a version twice.
CREATE TABLE message_schedule (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  subject_type text NOT NULL CHECK (subject_type IN ('job', 'quote', 'invoice')),
  subject_id text NOT NULL,
  kind text NOT NULL,
  version integer NOT NULL DEFAULT 1,
  due_at timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'sent', 'skipped', 'cancelled')),
  -- Why a text was held (quiet_hours) until due_at.
  held text,
  partner_id integer,
  sale_order_id integer,
  to_phone text,
  to_email text,
  vars jsonb NOT NULL DEFAULT '{}'::jsonb,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, subject_type, subject_id, kind)
);
CREATE INDEX message_schedule_due ON message_schedule (due_at) WHERE status = 'scheduled';
SELECT platform_enable_tenant_rls('message_schedule');

-- What happened to each message: sent (by which channels) or skipped and why; the customer's timeline
-- and the ERP chatter (posted after the send; chatter_at when it was).
CREATE TABLE message_log (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  schedule_id uuid NOT NULL,
  version integer NOT NULL,
  kind text NOT NULL,
  partner_id integer,
  sale_order_id integer,
  status text NOT NULL CHECK (status IN ('sent', 'skipped')),
  channels text[] NOT NULL DEFAULT '{}',
  reason text,
  sms_body text,
  email_subject text,
  at timestamptz NOT NULL,
  chatter_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, schedule_id, version)
);
CREATE INDEX message_log_partner ON message_log (tenant_id, partner_id, at DESC);
SELECT platform_enable_tenant_rls('message_log');

-- A customer's channel preference (an ERP contact; both when no row).
CREATE TABLE customer_channel_prefs (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  partner_id integer NOT NULL CHECK (partner_id > 0),
  channel text NOT NULL CHECK (channel IN ('sms', 'email', 'both')),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, partner_id)
);
SELECT platform_enable_tenant_rls('customer_channel_prefs');
