/**
 * The schedule on a controllable clock (docs/messages.md), Denver tenant, reminders at 17:00 local:
 * a job booked for tomorrow 10:00 sends one confirmation now and one reminder at 17:00 today; moved
 * twice, one reminder for the last time; cancelled, nothing; a text due at 22:30 goes at 08:00 (in
 * the customer's own zone when they have one);
 * across a DST change the reminder keeps its local hour; two senders, or one that dies between its
 * claim and its commit, send each message once.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import * as options from './message-settings.repo.js';
import * as repo from './messages.repo.js';
import { jobFacts, type MessagesKit, startMessagesKit } from './messages.test-support.js';

let k: MessagesKit;
beforeAll(async () => {
  k = await startMessagesKit();
});
afterAll(async () => k?.close());

let job = 0;
const nextJob = () => `00000000-0000-4000-8000-${String(++job).padStart(12, '0')}`;
beforeEach(async () => {
  await k.t.db.query('DELETE FROM message_schedule');
  await k.t.db.query('DELETE FROM message_log');
  await k.t.db.query('DELETE FROM sms_messages');
  await k.t.db.query('DELETE FROM email_messages');
  k.chatter.length = 0;
});

const book = (tenantId: string, jobId: string, start: string, end: string) =>
  k.inTenant(tenantId, (tx) => k.scheduler.jobScheduled(tx, tenantId, jobFacts({ jobId, start, end })));
const run = () => k.sender().runDue();

describe('scheduling customer messages', () => {
  it('a job booked for tomorrow 10:00 sends one confirmation now and one reminder at the tenant’s hour today', async () => {
    k.clock.set('2026-03-02T15:00:00Z'); // 08:00 in Denver
    await book(k.a, nextJob(), '2026-03-03T17:00:00Z', '2026-03-03T19:00:00Z');
    await run();
    const first = await k.texts(k.a);
    expect(first).toHaveLength(1);
    expect(first[0]!.contact_number).toBe('13035550123');
    expect(first[0]!.body).toContain('Tuesday 3 March, 10:00–12:00 with Alex');
    expect(first[0]!.body).toContain('A:');
    expect(await k.emails(k.a)).toEqual([
      { to_address: 'jane@example.com', subject: 'Your appointment with A on Tuesday 3 March' },
    ]);
    k.clock.set('2026-03-02T23:59:00Z'); // 16:59 in Denver
    await run();
    expect(await k.texts(k.a)).toHaveLength(1);
    k.clock.set('2026-03-03T00:00:00Z'); // 17:00 in Denver
    await run();
    await run();
    const texts = await k.texts(k.a);
    expect(texts).toHaveLength(2);
    expect(texts.filter((t) => t.body.includes('see you tomorrow'))).toHaveLength(1);
    expect(await k.texts(k.b)).toEqual([]);
    // The reminder email carries the unsubscribe link and headers (docs/email.md); the confirmation does not.
    const mails = await k.t.db.query<{ headers: Record<string, string> | null }>(
      `SELECT outbox.payload->'headers' AS headers FROM email_messages m JOIN outbox ON outbox.aggregate_id = m.id::text
       WHERE m.tenant_id = $1 AND outbox.topic LIKE 'email.%' ORDER BY m.created_at, m.id`,
      [k.a],
    );
    expect(mails.rows.map((r) => r.headers?.['List-Unsubscribe-Post'] ?? null)).toEqual([
      null,
      'List-Unsubscribe=One-Click',
    ]);
  });

  it('moved twice before its reminder, it sends one reminder, for the last time', async () => {
    k.clock.set('2026-03-02T15:00:00Z');
    const id = nextJob();
    await book(k.a, id, '2026-03-05T17:00:00Z', '2026-03-05T18:00:00Z');
    await run();
    await book(k.a, id, '2026-03-06T17:00:00Z', '2026-03-06T18:00:00Z');
    await book(k.a, id, '2026-03-07T16:00:00Z', '2026-03-07T18:00:00Z');
    for (const at of ['2026-03-05T00:00:00Z', '2026-03-06T00:00:00Z', '2026-03-07T00:00:00Z', '2026-03-08T00:00:00Z']) {
      k.clock.set(at);
      await run();
    }
    const reminders = (await k.texts(k.a)).filter((t) => t.body.includes('see you tomorrow'));
    expect(reminders.map((t) => t.body)).toEqual([expect.stringContaining('Saturday 7 March, 09:00–11:00')]);
  });

  it('cancelled before anything was due, it sends nothing', async () => {
    k.clock.set('2026-03-02T15:00:00Z');
    const id = nextJob();
    await book(k.a, id, '2026-03-05T17:00:00Z', '2026-03-05T18:00:00Z');
    await k.inTenant(k.a, (tx) => k.scheduler.jobCancelled(tx, k.a, id));
    k.clock.set('2026-03-06T00:00:00Z');
    await run();
    expect(await k.texts(k.a)).toEqual([]);
    expect(await k.emails(k.a)).toEqual([]);
  });

  it('quiet hours are the customer’s own when the office set their zone', async () => {
    await k.inTenant(k.a, (tx) => options.setTimeZone(tx, k.a, 11, 'Europe/Dublin'));
    try {
      k.clock.set('2026-03-02T22:00:00Z'); // 15:00 in Denver, 22:00 in Dublin
      await book(k.a, nextJob(), '2026-03-10T17:00:00Z', '2026-03-10T18:00:00Z');
      await run();
      expect(await k.texts(k.a)).toEqual([]);
      k.clock.set('2026-03-03T07:59:00Z'); // 07:59 in Dublin
      await run();
      expect(await k.texts(k.a)).toEqual([]);
      k.clock.set('2026-03-03T08:00:00Z');
      await run();
      expect(await k.texts(k.a)).toHaveLength(1);
    } finally {
      await k.t.db.query('DELETE FROM customer_channel_prefs');
    }
  });

  it('a text due at 22:30 waits for 08:00, and the timeline says so', async () => {
    k.clock.set('2026-03-03T05:30:00Z'); // 22:30 in Denver
    await book(k.a, nextJob(), '2026-03-10T17:00:00Z', '2026-03-10T18:00:00Z');
    await run();
    expect(await k.texts(k.a)).toEqual([]);
    k.clock.set('2026-03-03T14:59:00Z'); // 07:59
    await run();
    expect(await k.texts(k.a)).toEqual([]);
    k.clock.set('2026-03-03T15:00:00Z'); // 08:00
    await run();
    expect(await k.texts(k.a)).toHaveLength(1);
    const log = await k.inTenant(k.a, (tx) => repo.timeline(tx, k.a, 11));
    expect(log.map((l) => [l.kind, l.status, l.reason, l.channels])).toEqual([
      ['appointment_confirmed', 'sent', 'quiet hours, sent at 08:00', ['sms', 'email']],
    ]);
  });

  it('a number that texted STOP gets no text (the email still goes), and the timeline says why', async () => {
    k.clock.set('2026-03-02T18:00:00Z'); // 11:00 in Denver
    await k.t.db.query(
      `INSERT INTO sms_opt_outs (tenant_id, phone_number, keyword) VALUES ($1, '13035550123', 'STOP')`,
      [k.a],
    );
    await book(k.a, nextJob(), '2026-03-10T17:00:00Z', '2026-03-10T18:00:00Z');
    await run();
    expect(await k.texts(k.a)).toEqual([]);
    expect(await k.emails(k.a)).toHaveLength(1);
    const log = await k.inTenant(k.a, (tx) => repo.timeline(tx, k.a, 11));
    expect(log.map((l) => [l.kind, l.status, l.reason, l.channels])).toEqual([
      ['appointment_confirmed', 'sent', 'not texted: opted out of texts (STOP)', ['email']],
    ]);
    // Only this tenant's texts: tenant B still texts the same number.
    await book(k.b, nextJob(), '2026-03-10T17:00:00Z', '2026-03-10T18:00:00Z');
    await run();
    expect(await k.texts(k.b)).toHaveLength(1);
    await k.t.db.query('DELETE FROM sms_opt_outs');
  });

  it('keeps the reminder at 17:00 local across both daylight-saving changes', async () => {
    const spring = nextJob();
    const autumn = nextJob();
    k.clock.set('2026-03-02T15:00:00Z');
    await book(k.a, spring, '2026-03-09T16:00:00Z', '2026-03-09T17:00:00Z'); // Monday 10:00 MDT
    await book(k.a, autumn, '2026-11-02T17:00:00Z', '2026-11-02T18:00:00Z'); // Monday 10:00 MST
    const due = async (id: string) =>
      (await k.inTenant(k.a, (tx) => repo.scheduleOf(tx, k.a, { type: 'job', id }))).find((r) => r.kind === 'reminder')!
        .due_at;
    // Sunday 8 March is the first day of MDT (UTC-6); Sunday 1 November the first of MST (UTC-7).
    expect((await due(spring)).toISOString()).toBe('2026-03-08T23:00:00.000Z');
    expect((await due(autumn)).toISOString()).toBe('2026-11-02T00:00:00.000Z');
    k.clock.set('2026-03-08T22:59:00Z');
    await run();
    expect((await k.texts(k.a)).filter((t) => t.body.includes('see you tomorrow'))).toEqual([]);
    k.clock.set('2026-03-08T23:00:00Z');
    await run();
    expect((await k.texts(k.a)).filter((t) => t.body.includes('see you tomorrow'))).toHaveLength(1);
  });

  it('a message the email outbox refuses is skipped with its code, and the others of the batch still go', async () => {
    k.clock.set('2026-03-02T15:00:00Z');
    await book(k.a, nextJob(), '2026-03-05T17:00:00Z', '2026-03-05T18:00:00Z');
    const bad = nextJob();
    await k.inTenant(k.a, (tx) =>
      k.scheduler.jobScheduled(tx, k.a, jobFacts({ jobId: bad, partnerId: 12, start: '2026-03-05T17:00:00Z' })),
    );
    // An address the scheduler would have refused, as an older row might hold: the email outbox refuses it.
    await k.t.db.query(`UPDATE message_schedule SET to_email = 'not-an-address' WHERE subject_id = $1`, [bad]);
    await run();
    expect(await k.texts(k.a)).toHaveLength(1);
    const log = await k.inTenant(k.a, (tx) => repo.timeline(tx, k.a, 12));
    expect(log.map((l) => [l.status, l.reason])).toEqual([['skipped', 'could not be sent (VALIDATION_FAILED)']]);
  });

  it('two senders at once, and one that dies between its claim and its commit, send each message once', async () => {
    k.clock.set('2026-03-02T15:00:00Z');
    for (let i = 0; i < 5; i++) await book(k.a, nextJob(), '2026-03-05T17:00:00Z', '2026-03-05T18:00:00Z');
    const dying = k.sender({
      email: {
        enqueueIn: () => Promise.reject(new Error('killed between the claim and the commit')),
      },
    });
    await expect(dying.runTenant(k.a)).rejects.toThrow('killed');
    expect(await k.texts(k.a)).toEqual([]);
    await Promise.all([run(), run(), k.sender().runTenant(k.a)]);
    const texts = await k.texts(k.a);
    expect(texts).toHaveLength(5);
    expect(await k.emails(k.a)).toHaveLength(5);
    expect(new Set(texts.map((t) => t.contact_number))).toEqual(new Set(['13035550123']));
    // Each sent message is written once to its order's chatter.
    expect(k.chatter.map((c) => [c.order, c.body.includes('Appointment confirmed sent by sms and email')])).toEqual(
      Array(5).fill([7, true]),
    );
  });
});
