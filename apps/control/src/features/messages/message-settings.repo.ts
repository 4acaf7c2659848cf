/**
 * SQL of a tenant's message options (migration 0430): its settings, its kinds with their templates,
 * and its customers' channel preferences. Run in withTenant.
 */
import type { Queryable } from '@platform/db';

export interface SettingsRow {
  reminder_hour: number;
  review_link: string | null;
  review_delay_hours: number;
  quote_follow_up_days: number;
  invoice_reminder_days: number;
}

export interface KindRow {
  kind: string;
  enabled: boolean;
  sms_template: string | null;
  email_subject: string | null;
  email_template: string | null;
}

export async function settings(tx: Queryable, tenantId: string): Promise<SettingsRow | undefined> {
  const r = await tx.query<SettingsRow>(
    `SELECT reminder_hour, review_link, review_delay_hours, quote_follow_up_days, invoice_reminder_days
       FROM message_settings WHERE tenant_id = $1`,
    [tenantId],
  );
  return r.rows[0];
}

export async function saveSettings(tx: Queryable, tenantId: string, s: SettingsRow): Promise<void> {
  await tx.query(
    `INSERT INTO message_settings (tenant_id, reminder_hour, review_link, review_delay_hours, quote_follow_up_days, invoice_reminder_days)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (tenant_id) DO UPDATE SET reminder_hour = $2, review_link = $3, review_delay_hours = $4,
       quote_follow_up_days = $5, invoice_reminder_days = $6, updated_at = now()`,
    [tenantId, s.reminder_hour, s.review_link, s.review_delay_hours, s.quote_follow_up_days, s.invoice_reminder_days],
  );
}

export async function kinds(tx: Queryable, tenantId: string): Promise<KindRow[]> {
  const r = await tx.query<KindRow>(
    `SELECT kind, enabled, sms_template, email_subject, email_template FROM message_kinds WHERE tenant_id = $1`,
    [tenantId],
  );
  return r.rows;
}

export async function saveKind(tx: Queryable, tenantId: string, k: KindRow): Promise<void> {
  await tx.query(
    `INSERT INTO message_kinds (tenant_id, kind, enabled, sms_template, email_subject, email_template)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (tenant_id, kind) DO UPDATE SET enabled = $3, sms_template = $4, email_subject = $5,
       email_template = $6, updated_at = now()`,
    [tenantId, k.kind, k.enabled, k.sms_template, k.email_subject, k.email_template],
  );
}

export async function channelPref(tx: Queryable, tenantId: string, partnerId: number): Promise<string | undefined> {
  const r = await tx.query<{ channel: string }>(
    `SELECT channel FROM customer_channel_prefs WHERE tenant_id = $1 AND partner_id = $2`,
    [tenantId, partnerId],
  );
  return r.rows[0]?.channel;
}

export async function setChannelPref(
  tx: Queryable,
  tenantId: string,
  partnerId: number,
  channel: string,
): Promise<void> {
  await tx.query(
    `INSERT INTO customer_channel_prefs (tenant_id, partner_id, channel) VALUES ($1, $2, $3)
     ON CONFLICT (tenant_id, partner_id) DO UPDATE SET channel = $3, updated_at = now()`,
    [tenantId, partnerId, channel],
  );
}
