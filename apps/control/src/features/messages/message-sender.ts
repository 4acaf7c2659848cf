/**
 * Sends what is due. Per tenant, one transaction claims due rows (FOR UPDATE SKIP LOCKED: a second
 * sender skips them), queues each text (`queueSmsIn`, the `sms.send` outbox job the worker delivers
 * with the message id as the provider's idempotency key, and where the opt-out check applies) and
 * email (the email outbox, keyed by the row's id and version), writes the log row and marks the row
 * sent, all in that one commit. The send intent IS the outbox row: a crash before the commit leaves
 * the row due and nothing queued; after it, everything is queued once. A text due in quiet hours
 * (21:00–08:00 in the customer's zone, the tenant's when unknown) waits for 08:00.
 * Sent messages are then written to the ERP chatter of the job's order, once (by their Message-Id).
 */
import { type Db, type Queryable, withTenant } from '@platform/db';
import type { EmailOutboxService } from '@platform/email';
import { queueSmsIn, SMS_BODY_MAX, smsOptedOut } from '@platform/integrations';
import { type Clock, isAppError } from '@platform/kernel';
import { escapeHtml } from '@platform/web/escape-html.js';

import { postNote } from '../sales/sales-erp.js';
import type { TenantErps } from '../tenants/tenant-erps.js';
import { BULK_KINDS, fill, isMessageKind, type MessageVars } from './message-kinds.js';
import { type TenantMessaging, tenantMessaging } from './message-options.js';
import * as options from './message-settings.repo.js';
import { type FollowUpFacts, followUpFacts, type QuotesOpened } from './message-settled.js';
import { outsideQuietHours } from './message-time.js';
import * as repo from './messages.repo.js';

const OPTED_OUT = 'opted out of texts (STOP)';

export interface SenderDeps {
  db: Db;
  clock: Clock;
  erps: TenantErps;
  email: Pick<EmailOutboxService, 'enqueueIn'>;
  /** The tenant's default SMS line (E.164), undefined when it has none. */
  lineOf(tenantId: string): Promise<string | undefined>;
  /** When quotes were first opened in the portal (the portal feature's `quotesFirstOpened`). */
  quotesOpened: QuotesOpened;
}

const BATCH = 50;
/** How long a sent message's chatter note is retried. */
const CHATTER_DAYS = 7;

export const KIND_LABELS: Record<string, string> = {
  appointment_confirmed: 'Appointment confirmed',
  reminder: 'Reminder',
  on_my_way: 'On my way',
  job_done: 'Job done',
  review_request: 'Review request',
  quote_follow_up: 'Quote follow-up',
  ready_to_fit: 'Ready to fit',
  invoice_reminder: 'Invoice reminder',
};

export class MessageSender {
  constructor(private readonly d: SenderDeps) {}

  /** One pass: every tenant's due messages, then their chatter. How many were sent or skipped. */
  async runDue(onError: (err: unknown, tenantId: string) => void = () => {}): Promise<number> {
    let n = 0;
    for (const tenantId of await repo.dueTenants(this.d.db, this.d.clock.now())) {
      try {
        n += await this.runTenant(tenantId);
      } catch (err) {
        onError(err, tenantId);
      }
    }
    return n;
  }

  async runTenant(tenantId: string): Promise<number> {
    const line = await this.d.lineOf(tenantId);
    const erp = () => this.d.erps.forTenant(tenantId);
    const facts = await followUpFacts(this.d.db, erp, tenantId, this.d.clock.now(), this.d.quotesOpened);
    let done = 0;
    for (;;) {
      const n = await withTenant(this.d.db, tenantId, async (tx) => {
        const rows = await repo.claimDue(tx, tenantId, this.d.clock.now(), BATCH);
        if (!rows.length) return 0;
        const t = await tenantMessaging(tx, tenantId);
        for (const r of rows) await this.guarded(tx, r, () => this.sendOne(tx, r, t, line, facts));
        return rows.length;
      });
      done += n;
      if (n < BATCH) break;
    }
    await this.postChatter(tenantId).catch(() => undefined); // retried on the next pass
    return done;
  }

  /**
   * One row under a savepoint: a message that cannot be sent (an AppError: an address the email
   * outbox refuses, a text too long…) is logged skipped with its code instead of failing the batch
   * every pass. Anything else (the database gone) fails the batch: it is retried, nothing was sent.
   */
  private async guarded(tx: Queryable, r: repo.ScheduleRow, send: () => Promise<unknown>): Promise<void> {
    await tx.query('SAVEPOINT message_send');
    try {
      await send();
      await tx.query('RELEASE SAVEPOINT message_send');
    } catch (e) {
      if (!isAppError(e)) throw e;
      await tx.query('ROLLBACK TO SAVEPOINT message_send');
      const at = this.d.clock.now();
      const l = { status: 'skipped' as const, channels: [], sms_body: null, email_subject: null, at };
      await this.log(tx, r, { ...l, reason: `could not be sent (${e.code})` });
      await repo.finish(tx, r.tenant_id, r.id, 'skipped');
    }
  }

  private async sendOne(
    tx: Queryable,
    r: repo.ScheduleRow,
    t: TenantMessaging,
    line: string | undefined,
    facts: FollowUpFacts,
  ) {
    const now = this.d.clock.now();
    const skip = async (reason: string) => {
      await this.log(tx, r, { status: 'skipped', channels: [], reason, sms_body: null, email_subject: null, at: now });
      await repo.finish(tx, r.tenant_id, r.id, 'skipped');
    };
    if (!isMessageKind(r.kind)) return skip('unknown kind');
    const k = t.kinds[r.kind];
    if (!k.enabled) return skip('turned off');
    const done = facts.settled.get(`${r.kind}:${r.subject_id}`);
    if (done) return skip(done);
    const prefs = r.partner_id ? await options.customerPrefs(tx, r.tenant_id, r.partner_id) : undefined;
    const pref = prefs?.channel ?? 'both';
    const wantsSms = pref !== 'email' && r.to_phone && line ? r.to_phone : null;
    // A number that texted STOP is never texted (the SMS send job refuses it too); the timeline says why.
    const optedOut = wantsSms ? await smsOptedOut(tx, r.tenant_id, wantsSms) : false;
    const sms = optedOut ? null : wantsSms;
    const email = pref !== 'sms' ? r.to_email : null;
    if (!sms && !email) return skip(optedOut ? OPTED_OUT : whyNone(pref, r, line));
    if (sms) {
      // The customer's own zone when the office set one (the law speaks of the customer's night).
      const at = outsideQuietHours(now.getTime(), prefs?.time_zone ?? t.timeZone);
      if (at > now.getTime()) return repo.hold(tx, r.tenant_id, r.id, new Date(at), 'quiet_hours');
    }
    const seen = r.kind === 'quote_follow_up' ? quoteSeen(facts.opened.get(r.subject_id)) : undefined;
    const vars: MessageVars = { ...r.vars, company: t.company, ...(seen ? { quote_nudge: seen.nudge } : {}) };
    const body = sms ? fill(k.sms, vars).slice(0, SMS_BODY_MAX) : null;
    const subject = email ? fill(k.subject, vars) : null;
    if (sms && line && body) await queueSmsIn(tx, { tenantId: r.tenant_id, from: line, to: sms, body });
    if (email && subject)
      await this.d.email.enqueueIn(tx, {
        tenantId: r.tenant_id,
        template: 'customer_message',
        to: { address: email },
        data: { subject, body: fill(k.email, vars) },
        key: `message:${r.id}:${r.version}`,
        lane: BULK_KINDS.includes(r.kind) ? 'bulk' : 'transactional',
        // Reminders and follow-ups carry the unsubscribe link and one-click headers (docs/email.md).
        category: !BULK_KINDS.includes(r.kind)
          ? 'transactional'
          : r.kind.endsWith('reminder')
            ? 'reminder'
            : 'follow_up',
        tags: [`message:${r.kind}`],
      });
    const channels = [...(body ? ['sms'] : []), ...(subject ? ['email'] : [])];
    const why = [
      seen?.reason,
      r.held === 'quiet_hours' ? 'quiet hours, sent at 08:00' : undefined,
      optedOut ? `not texted: ${OPTED_OUT}` : undefined,
    ].filter(Boolean);
    const reason = why.length ? why.join('; ') : null;
    await this.log(tx, r, { status: 'sent', channels, reason, sms_body: body, email_subject: subject, at: now });
    await repo.finish(tx, r.tenant_id, r.id, 'sent');
  }

  private log(
    tx: Queryable,
    r: repo.ScheduleRow,
    l: Omit<repo.LogRow, 'id' | 'schedule_id' | 'kind' | 'partner_id' | 'sale_order_id'>,
  ) {
    return repo.insertLog(tx, r.tenant_id, {
      ...{
        schedule_id: r.id,
        version: r.version,
        kind: r.kind,
        partner_id: r.partner_id,
        sale_order_id: r.sale_order_id,
      },
      ...l,
    });
  }

  /**
   * Sent messages onto the order's chatter (as the portal's notes: sales-erp.ts postNote). No
   * transaction is held across the ERP's calls (the embedded ERP may share the database); the note's
   * Message-Id makes a second sender, or a retry after a lost reply, find it instead of posting again.
   */
  async postChatter(tenantId: string): Promise<void> {
    const erp = await this.d.erps.forTenant(tenantId);
    const rows = await withTenant(this.d.db, tenantId, (tx) =>
      repo.awaitingChatter(tx, tenantId, new Date(this.d.clock.now().getTime() - CHATTER_DAYS * 86_400_000), BATCH),
    );
    for (const l of rows) {
      const what = `${KIND_LABELS[l.kind] ?? l.kind} sent by ${l.channels.join(' and ')}`;
      const text = [l.email_subject, l.sms_body].filter(Boolean).join(' / ');
      const html = `<p><strong>${escapeHtml(what)}</strong></p><p>${escapeHtml(text)}</p>`;
      await postNote(
        erp,
        l.sale_order_id!,
        html,
        'Customer messages',
        `<message-${l.id}@platform>`,
        'Customer message',
      );
      await withTenant(this.d.db, tenantId, (tx) => repo.markChatter(tx, tenantId, l.id, this.d.clock.now()));
    }
  }
}

/** A follow-up says whether the customer opened the quote (the text's nudge and the timeline's note). */
function quoteSeen(openedAt: Date | undefined): { nudge: string; reason: string } {
  if (!openedAt) return { nudge: 'your quote is waiting for you.', reason: 'the quote was not opened' };
  const day = openedAt.toISOString().slice(0, 10);
  return { nudge: 'thank you for looking at your quote.', reason: `the quote was opened ${day}, not answered` };
}

function whyNone(pref: string, r: repo.ScheduleRow, line: string | undefined): string {
  if (pref === 'sms') return r.to_phone ? 'no SMS line' : 'prefers texts; no mobile number';
  if (pref === 'email') return 'prefers email; no email address';
  if (r.to_phone && !line) return 'no email address and no SMS line';
  return 'no phone or email';
}
