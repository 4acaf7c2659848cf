/**
 * What the other features tell the messages feature, inside their own transaction (so a rolled back
 * change schedules nothing): a job scheduled or moved, cancelled, on the way, done; a quote sent or
 * answered; a job ready to fit; an invoice unpaid. Each turns into schedule rows (messages.repo.ts):
 * re-telling replaces the due time, cancelling cancels. Rendering waits for the send (the tenant's
 * current templates); the facts the templates need are kept with the row.
 */
import type { Queryable } from '@platform/db';
import type { Clock } from '@platform/kernel';

import type { MessageKind, MessageVars } from './message-kinds.js';
import { tenantMessaging } from './message-options.js';
import { appointmentWords, reminderDue } from './message-time.js';
import * as repo from './messages.repo.js';

/** Who the message is for and what it is about (the job's ERP facts, read by the caller). */
export interface Recipient {
  partnerId: number | null;
  saleOrderId: number | null;
  name: string | null;
  phone: string | null;
  email: string | null;
}

export interface JobFacts extends Recipient {
  jobId: string;
  start: string | null;
  end: string | null;
  technician: string | null;
}

/**
 * The customer's appointment URL of a scheduled job (the portal's AppointmentLinks): `earlier`, the
 * URL an earlier message of the job carries, is handed back while its link is live. Undefined: none
 * (the tenant's portal is off).
 */
export type AppointmentLinker = (
  tx: Queryable,
  tenantId: string,
  j: { jobId: string; start: string; end: string | null },
  earlier: string | undefined,
) => Promise<string | undefined>;

const EMAIL_RE = /^[^\s@<>"]{1,64}@[^\s@<>"]{1,255}$/;
const firstName = (name: string | null) => name?.trim().split(/\s+/)[0] ?? '';

export class MessageScheduler {
  constructor(
    private readonly clock: Clock,
    /** The customer's phone in E.164 (the SMS path's normaliser), or undefined when it is not one. */
    private readonly normalize: (raw: string) => string | undefined,
    private readonly appointmentLink?: AppointmentLinker,
  ) {}

  private async put(
    tx: Queryable,
    tenantId: string,
    subject: { type: 'job' | 'quote' | 'invoice'; id: string },
    kind: MessageKind,
    due: Date,
    to: Recipient,
    vars: MessageVars,
  ): Promise<void> {
    const phone = to.phone ? (this.normalize(to.phone) ?? null) : null;
    const email = to.email && EMAIL_RE.test(to.email) ? to.email : null;
    await repo.upsertSchedule(tx, {
      ...{ tenant_id: tenantId, subject_type: subject.type, subject_id: subject.id, kind, due_at: due },
      ...{ partner_id: to.partnerId, sale_order_id: to.saleOrderId, to_phone: phone, to_email: email },
      vars: { first_name: firstName(to.name), ...vars },
    });
  }

  private async jobVars(tx: Queryable, tenantId: string, j: JobFacts, timeZone: string): Promise<MessageVars> {
    const start = j.start ? Date.parse(j.start) : undefined;
    const words = start ? appointmentWords(start, j.end ? Date.parse(j.end) : undefined, timeZone) : undefined;
    return {
      ...(words ?? {}),
      technician: j.technician ? firstName(j.technician) : 'our fitter',
      portal_link: (await this.linkOf(tx, tenantId, j)) ?? '',
    };
  }

  /** The job's appointment page (a job not yet scheduled has none): one link per job, kept across moves. */
  private async linkOf(tx: Queryable, tenantId: string, j: JobFacts): Promise<string | undefined> {
    if (!j.start || !this.appointmentLink) return undefined;
    const rows = await repo.scheduleOf(tx, tenantId, { type: 'job', id: j.jobId });
    const earlier = rows.map((r) => r.vars.portal_link).find((u) => !!u);
    return this.appointmentLink(tx, tenantId, { jobId: j.jobId, start: j.start, end: j.end }, earlier);
  }

  /** Scheduled or moved: a confirmation now and the reminder the day before at the tenant's hour. */
  async jobScheduled(tx: Queryable, tenantId: string, j: JobFacts): Promise<void> {
    if (!j.start) return;
    const t = await tenantMessaging(tx, tenantId);
    const now = this.clock.now();
    const vars = await this.jobVars(tx, tenantId, j, t.timeZone);
    const job = { type: 'job' as const, id: j.jobId };
    if (t.kinds.appointment_confirmed.enabled) await this.put(tx, tenantId, job, 'appointment_confirmed', now, j, vars);
    const due = reminderDue(Date.parse(j.start), t.settings.reminder_hour, t.timeZone);
    // A job booked after its reminder's hour has no reminder: the confirmation just said it all.
    if (t.kinds.reminder.enabled && due > now.getTime())
      await this.put(tx, tenantId, job, 'reminder', new Date(due), j, vars);
    else await repo.cancelScheduled(tx, tenantId, job, ['reminder']);
  }

  async jobCancelled(tx: Queryable, tenantId: string, jobId: string): Promise<void> {
    await repo.cancelScheduled(tx, tenantId, { type: 'job', id: jobId });
  }

  async onMyWay(tx: Queryable, tenantId: string, j: JobFacts, etaMinutes: number): Promise<void> {
    const t = await tenantMessaging(tx, tenantId);
    if (!t.kinds.on_my_way.enabled) return;
    const vars = { ...(await this.jobVars(tx, tenantId, j, t.timeZone)), eta: String(etaMinutes) };
    await this.put(tx, tenantId, { type: 'job', id: j.jobId }, 'on_my_way', this.clock.now(), j, vars);
  }

  /** Done: thanks now, the review request N hours later; nothing more about the visit is pending. */
  async jobCompleted(tx: Queryable, tenantId: string, j: JobFacts): Promise<void> {
    const job = { type: 'job' as const, id: j.jobId };
    await repo.cancelScheduled(tx, tenantId, job, ['appointment_confirmed', 'reminder', 'on_my_way']);
    const t = await tenantMessaging(tx, tenantId);
    const now = this.clock.now();
    const vars = { ...(await this.jobVars(tx, tenantId, j, t.timeZone)), review_link: t.settings.review_link ?? '' };
    if (t.kinds.job_done.enabled) await this.put(tx, tenantId, job, 'job_done', now, j, vars);
    if (t.kinds.review_request.enabled && t.settings.review_link) {
      const due = new Date(now.getTime() + t.settings.review_delay_hours * 3_600_000);
      await this.put(tx, tenantId, job, 'review_request', due, j, vars);
    }
  }

  async readyToFit(tx: Queryable, tenantId: string, j: JobFacts): Promise<void> {
    const t = await tenantMessaging(tx, tenantId);
    if (!t.kinds.ready_to_fit.enabled) return;
    // Once per job: a later receipt for an order already complete tells nobody again.
    const told = await repo.scheduleOf(tx, tenantId, { type: 'job', id: j.jobId });
    if (told.some((r) => r.kind === 'ready_to_fit')) return;
    await this.put(
      tx,
      tenantId,
      { type: 'job', id: j.jobId },
      'ready_to_fit',
      this.clock.now(),
      j,
      await this.jobVars(tx, tenantId, j, t.timeZone),
    );
  }

  /** A quote sent: a follow-up after N days unless it is opened or answered first (quoteSettled). */
  async quoteSent(tx: Queryable, tenantId: string, q: Recipient & { quoteId: string; number: string; link: string }) {
    // A quote sent again starts its wait again (the upsert replaces the due time).
    const t = await tenantMessaging(tx, tenantId);
    if (!t.kinds.quote_follow_up.enabled) return;
    const due = new Date(this.clock.now().getTime() + t.settings.quote_follow_up_days * 86_400_000);
    const vars = { quote_number: q.number, portal_link: q.link };
    await this.put(tx, tenantId, { type: 'quote', id: q.quoteId }, 'quote_follow_up', due, q, vars);
  }

  async quoteSettled(tx: Queryable, tenantId: string, quoteId: string): Promise<void> {
    await repo.cancelScheduled(tx, tenantId, { type: 'quote', id: quoteId });
  }

  /** An invoice due on `dueDate` (yyyy-mm-dd): a reminder N days later unless paid first (invoicePaid). */
  async invoiceIssued(
    tx: Queryable,
    tenantId: string,
    i: Recipient & { invoiceId: number; number: string; amountDue: string; dueDate: string; link: string },
  ) {
    const t = await tenantMessaging(tx, tenantId);
    if (!t.kinds.invoice_reminder.enabled) return;
    const due = new Date(Date.parse(`${i.dueDate}T12:00:00Z`) + t.settings.invoice_reminder_days * 86_400_000);
    const vars = { invoice_number: i.number, amount_due: i.amountDue, portal_link: i.link };
    await this.put(tx, tenantId, { type: 'invoice', id: String(i.invoiceId) }, 'invoice_reminder', due, i, vars);
  }

  async invoicePaid(tx: Queryable, tenantId: string, invoiceId: number): Promise<void> {
    await repo.cancelScheduled(tx, tenantId, { type: 'invoice', id: String(invoiceId) });
  }
}
