/**
 * SQL of the messages feature (migration 0430): the schedule and the log (the options are in
 * message-settings.repo.ts). Tenant-scoped functions run in withTenant; `dueTenants`
 * is the sender's cross-tenant look (the owning role, like the outbox relay).
 */
import type { Queryable } from '@platform/db';

export interface ScheduleRow {
  tenant_id: string;
  id: string;
  subject_type: 'job' | 'quote' | 'invoice';
  subject_id: string;
  kind: string;
  version: number;
  due_at: Date;
  status: 'scheduled' | 'sent' | 'skipped' | 'cancelled';
  held: string | null;
  partner_id: number | null;
  sale_order_id: number | null;
  to_phone: string | null;
  to_email: string | null;
  vars: Record<string, string>;
}

export type NewSchedule = Pick<
  ScheduleRow,
  | 'tenant_id'
  | 'subject_type'
  | 'subject_id'
  | 'kind'
  | 'due_at'
  | 'partner_id'
  | 'sale_order_id'
  | 'to_phone'
  | 'to_email'
  | 'vars'
>;

export interface LogRow {
  id: string;
  schedule_id: string;
  kind: string;
  partner_id: number | null;
  sale_order_id: number | null;
  status: 'sent' | 'skipped';
  channels: string[];
  reason: string | null;
  sms_body: string | null;
  email_subject: string | null;
  at: Date;
}

/** Schedules (or re-schedules: a new version, the new time, scheduled again) the subject's message. */
export async function upsertSchedule(tx: Queryable, s: NewSchedule): Promise<void> {
  await tx.query(
    `INSERT INTO message_schedule (tenant_id, subject_type, subject_id, kind, due_at, partner_id, sale_order_id, to_phone, to_email, vars)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (tenant_id, subject_type, subject_id, kind) DO UPDATE SET
       version = message_schedule.version + 1, due_at = EXCLUDED.due_at, status = 'scheduled', held = NULL,
       partner_id = EXCLUDED.partner_id, sale_order_id = EXCLUDED.sale_order_id, to_phone = EXCLUDED.to_phone,
       to_email = EXCLUDED.to_email, vars = EXCLUDED.vars, updated_at = now()`,
    [
      s.tenant_id,
      s.subject_type,
      s.subject_id,
      s.kind,
      s.due_at,
      s.partner_id,
      s.sale_order_id,
      s.to_phone,
      s.to_email,
      JSON.stringify(s.vars),
    ],
  );
}

/** Cancels what is still to be sent about the subject (all kinds, or those given). */
export async function cancelScheduled(
  tx: Queryable,
  tenantId: string,
  subject: { type: string; id: string },
  kinds?: string[],
): Promise<number> {
  const r = await tx.query(
    `UPDATE message_schedule SET status = 'cancelled', version = version + 1, updated_at = now()
      WHERE tenant_id = $1 AND subject_type = $2 AND subject_id = $3 AND status = 'scheduled'
        AND ($4::text[] IS NULL OR kind = ANY($4))`,
    [tenantId, subject.type, subject.id, kinds ?? null],
  );
  return r.rowCount ?? 0;
}

export async function scheduleOf(
  tx: Queryable,
  tenantId: string,
  subject: { type: string; id: string },
): Promise<ScheduleRow[]> {
  const r = await tx.query<ScheduleRow>(
    `SELECT * FROM message_schedule WHERE tenant_id = $1 AND subject_type = $2 AND subject_id = $3 ORDER BY kind`,
    [tenantId, subject.type, subject.id],
  );
  return r.rows;
}

/** Tenants with a message due or one to write to the chatter (the sender's pass; the owning role, across tenants). */
export async function dueTenants(db: Queryable, now: Date): Promise<string[]> {
  const r = await db.query<{ tenant_id: string }>(
    `SELECT tenant_id FROM message_schedule WHERE status = 'scheduled' AND due_at <= $1
     UNION SELECT tenant_id FROM message_log WHERE status = 'sent' AND chatter_at IS NULL AND sale_order_id IS NOT NULL
       AND at > $1::timestamptz - interval '7 days'`,
    [now],
  );
  return r.rows.map((x) => x.tenant_id);
}

/** Locks due rows no other sender holds (FOR UPDATE SKIP LOCKED): two senders never take the same row. */
export async function claimDue(tx: Queryable, tenantId: string, now: Date, limit: number): Promise<ScheduleRow[]> {
  const r = await tx.query<ScheduleRow>(
    `SELECT * FROM message_schedule WHERE tenant_id = $1 AND status = 'scheduled' AND due_at <= $2
      ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED`,
    [tenantId, now, limit],
  );
  return r.rows;
}

/** Due rows of a kind (read before the claim: their ERP state is asked outside it). */
export async function dueOfKind(
  tx: Queryable,
  tenantId: string,
  now: Date,
  kind: string,
): Promise<{ subject_id: string; sale_order_id: number | null }[]> {
  const r = await tx.query<{ subject_id: string; sale_order_id: number | null }>(
    `SELECT subject_id, sale_order_id FROM message_schedule
      WHERE tenant_id = $1 AND status = 'scheduled' AND due_at <= $2 AND kind = $3`,
    [tenantId, now, kind],
  );
  return r.rows;
}

export async function hold(tx: Queryable, tenantId: string, id: string, until: Date, why: string): Promise<void> {
  await tx.query(
    `UPDATE message_schedule SET due_at = $3, held = $4, updated_at = now() WHERE tenant_id = $1 AND id = $2`,
    [tenantId, id, until, why],
  );
}

export async function finish(tx: Queryable, tenantId: string, id: string, status: 'sent' | 'skipped'): Promise<void> {
  await tx.query(`UPDATE message_schedule SET status = $3, updated_at = now() WHERE tenant_id = $1 AND id = $2`, [
    tenantId,
    id,
    status,
  ]);
}

export async function insertLog(
  tx: Queryable,
  tenantId: string,
  l: Omit<LogRow, 'id'> & { version: number },
): Promise<boolean> {
  const r = await tx.query(
    `INSERT INTO message_log (tenant_id, schedule_id, version, kind, partner_id, sale_order_id, status, channels, reason, sms_body, email_subject, at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (tenant_id, schedule_id, version) DO NOTHING`,
    [
      tenantId,
      l.schedule_id,
      l.version,
      l.kind,
      l.partner_id,
      l.sale_order_id,
      l.status,
      l.channels,
      l.reason,
      l.sms_body,
      l.email_subject,
      l.at,
    ],
  );
  return (r.rowCount ?? 0) > 0;
}

export async function timeline(tx: Queryable, tenantId: string, partnerId: number, limit = 100): Promise<LogRow[]> {
  const r = await tx.query<LogRow>(
    `SELECT id, schedule_id, kind, partner_id, sale_order_id, status, channels, reason, sms_body, email_subject, at
       FROM message_log WHERE tenant_id = $1 AND partner_id = $2 ORDER BY at DESC LIMIT $3`,
    [tenantId, partnerId, limit],
  );
  return r.rows;
}

/**
 * Sent messages since `since` not yet on the order's chatter (the post itself is once-only by its
 * Message-Id); older ones are given up (an order gone from the ERP must not be asked about forever).
 */
export async function awaitingChatter(tx: Queryable, tenantId: string, since: Date, limit: number): Promise<LogRow[]> {
  const r = await tx.query<LogRow>(
    `SELECT id, schedule_id, kind, partner_id, sale_order_id, status, channels, reason, sms_body, email_subject, at
       FROM message_log WHERE tenant_id = $1 AND status = 'sent' AND chatter_at IS NULL AND sale_order_id IS NOT NULL
        AND at > $2 ORDER BY at LIMIT $3`,
    [tenantId, since, limit],
  );
  return r.rows;
}

export async function markChatter(tx: Queryable, tenantId: string, id: string, at: Date): Promise<void> {
  await tx.query(`UPDATE message_log SET chatter_at = $3 WHERE tenant_id = $1 AND id = $2`, [tenantId, id, at]);
}
