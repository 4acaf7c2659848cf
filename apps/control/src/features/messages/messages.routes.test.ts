/**
 * Customer messages through the control plane: the owners' settings (templates with unknown
 * placeholders refused, the office refused), the preview with the company's name, and jobs that tell
 * the customer: scheduled (a confirmation now, a reminder pending), "On my way" with the estimate the
 * technician picks, cancelled (the reminder cancelled); each sent message on the order's chatter and
 * on the customer's timeline. The tenant's zone is one where it is daytime now, so quiet hours never
 * hold these texts whatever hour the test runs at.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type CrmSalesKit, startCrmSalesKit } from '../../testing/crm-sales-kit.js';
import { acceptedOrder, completedJob } from '../invoicing/invoicing.test-support.js';
import { textingTenant } from './messages.test-support.js';

let k: CrmSalesKit;
beforeAll(async () => {
  k = await startCrmSalesKit();
  await textingTenant(k, k.a);
}, 180_000);
afterAll(async () => k?.close());

const texts = async (to: string) =>
  (
    await k.kit.t.db.query<{ body: string }>(
      `SELECT body FROM sms_messages WHERE tenant_id = $1 AND contact_number = $2 AND direction = 'outbound'`,
      [k.a.id, to],
    )
  ).rows.map((r) => r.body);
const send = () => k.kit.deps.messages.sender.runDue();

describe('customer messages settings', () => {
  it('answers the defaults, refuses an unknown placeholder by its field and the office, and previews', async () => {
    const got = await k.call('GET', `/api/tenants/${k.a.id}/messages`, k.a.owner);
    expect(got.status).toBe(200);
    expect(got.body.reminder_hour).toBe(17);
    const { label, ...reminder } = got.body.kinds.find((x: { kind: string }) => x.kind === 'reminder');
    expect([label, reminder.enabled]).toEqual(['Reminder', true]);
    const body = { ...got.body, kinds: [{ ...reminder, sms: 'See you {{frist_name}}' }] };
    delete body.time_zone;
    delete body.placeholders;
    const bad = await k.call('PUT', `/api/tenants/${k.a.id}/messages`, k.a.owner, body);
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('kinds.0.sms');
    expect((await k.call('PUT', `/api/tenants/${k.a.id}/messages`, k.a.office, body)).status).toBe(403);
    const ok = await k.call('PUT', `/api/tenants/${k.a.id}/messages`, k.a.owner, {
      ...body,
      reminder_hour: 18,
      kinds: [{ ...reminder, sms: '{{company}}: see you tomorrow {{first_name}}, {{window}}.' }],
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.reminder_hour).toBe(18);
    const preview = await k.call('POST', `/api/tenants/${k.a.id}/messages/preview`, k.a.owner, { kind: 'reminder' });
    expect(preview.body.sms).toBe('Tenant acme-blinds: see you tomorrow Jane, 10:00–12:00.');
    const given = await k.call('POST', `/api/tenants/${k.a.id}/messages/preview`, k.a.owner, {
      kind: 'on_my_way',
      sms: '{{technician}} in {{eta}} min',
    });
    expect(given.body.sms).toBe('Alex in 20 min');
  });
});

describe('jobs tell the customer', () => {
  it('confirms a scheduled job, texts "on my way" with the estimate, writes both to the chatter and the timeline', async () => {
    const { orderId } = await acceptedOrder(k, k.a, { deposit: false, customer: 'Maria Lopez' });
    const start = new Date(Date.now() + 3 * 86_400_000);
    start.setUTCMinutes(0, 0, 0);
    const job = await k.call('POST', '/jobs', k.a.office, {
      customer: { name: 'Maria Lopez', phone: '303 555 0142', email: 'maria@example.com' },
      address: { street: '3 Main St', city: 'Denver', zip: '80202' },
      sale_order_id: orderId,
      scheduled_start: start.toISOString(),
      scheduled_end: new Date(start.getTime() + 7_200_000).toISOString(),
    });
    expect(job.status, JSON.stringify(job.body)).toBe(201);
    await send();
    expect(await texts('13035550142')).toEqual([expect.stringContaining('your appointment is booked for')]);
    const badEta = await k.call('POST', `/jobs/${job.body.id}/stage`, k.a.office, { stage: 'travel', eta_minutes: 15 });
    expect(badEta.status).toBe(422);
    expect(JSON.stringify(badEta.body)).toContain('eta_minutes');
    const travel = await k.call('POST', `/jobs/${job.body.id}/stage`, k.a.office, { stage: 'travel', eta_minutes: 20 });
    expect(travel.status, JSON.stringify(travel.body)).toBe(200);
    await send();
    const sent = await texts('13035550142');
    expect(sent).toHaveLength(2);
    expect(sent).toContainEqual('Tenant acme-blinds: our fitter is on the way and should arrive in about 20 minutes.');
    const chatter = await k.a.erp.erp.searchRead(
      'mail.message',
      [
        ['model', '=', 'sale.order'],
        ['res_id', '=', orderId],
      ],
      { fields: ['body'] },
    );
    const bodies = chatter.map((m) => String(m.body));
    expect(bodies.filter((b) => b.includes('On my way sent by sms and email'))).toHaveLength(1);
    expect(bodies.filter((b) => b.includes('Appointment confirmed sent by sms and email'))).toHaveLength(1);
    const partner = (await k.call('GET', `/jobs/${job.body.id}`, k.a.office)).body.customer.id;
    const timeline = await k.call('GET', `/customers/${partner}/messages`, k.a.office);
    expect(timeline.status).toBe(200);
    expect(timeline.body.messages.map((m: { label: string; status: string }) => [m.label, m.status])).toEqual([
      ['On my way', 'sent'],
      ['Appointment confirmed', 'sent'],
    ]);
  });

  it('cancelling a job cancels its reminder; a customer who wants email only gets no text', async () => {
    const start = new Date(Date.now() + 5 * 86_400_000);
    const job = await k.call('POST', '/jobs', k.a.office, {
      customer: { name: 'Sam Park', phone: '303 555 0177', email: 'sam@example.com' },
      address: { street: '4 Main St', city: 'Denver', zip: '80202' },
      scheduled_start: start.toISOString(),
      scheduled_end: new Date(start.getTime() + 3_600_000).toISOString(),
    });
    const partner = (await k.call('GET', `/jobs/${job.body.id}`, k.a.office)).body.customer.id;
    const pref = await k.call('PUT', `/customers/${partner}/message-channel`, k.a.office, { channel: 'email' });
    expect(pref.body).toEqual({ channel: 'email' });
    await send();
    expect(await texts('13035550177')).toEqual([]);
    const pending = () =>
      k.kit.t.db.query(`SELECT kind FROM message_schedule WHERE subject_id = $1 AND status = 'scheduled'`, [
        job.body.id,
      ]);
    expect((await pending()).rows).toEqual([{ kind: 'reminder' }]);
    expect((await k.call('POST', `/jobs/${job.body.id}/stage`, k.a.office, { stage: 'cancelled' })).status).toBe(200);
    expect((await pending()).rows).toEqual([]);
    const mars = await k.call('PUT', `/customers/${partner}/time-zone`, k.a.office, { time_zone: 'Mars/Olympus' });
    expect(mars.status).toBe(422);
    expect(JSON.stringify(mars.body)).toContain('must be an IANA time zone');
    const zone = await k.call('PUT', `/customers/${partner}/time-zone`, k.a.office, { time_zone: 'Europe/Dublin' });
    expect(zone.body).toEqual({ channel: 'email', time_zone: 'Europe/Dublin' });
    const timeline = await k.call('GET', `/customers/${partner}/messages`, k.a.office);
    expect(timeline.body.channel).toBe('email');
    expect(timeline.body.time_zone).toBe('Europe/Dublin');
    const cleared = await k.call('PUT', `/customers/${partner}/time-zone`, k.a.office, { time_zone: null });
    expect(cleared.body).toEqual({ channel: 'email', time_zone: null });
    expect(timeline.body.messages[0]).toMatchObject({ kind: 'appointment_confirmed', channels: ['email'] });
  });
});

describe('quote follow-ups', () => {
  it('follows up a sent quote after the tenant’s days, saying whether it was opened, and not one accepted', async () => {
    const got = (await k.call('GET', `/api/tenants/${k.a.id}/messages`, k.a.owner)).body;
    const { label: _, ...follow } = got.kinds.find((x: { kind: string }) => x.kind === 'quote_follow_up');
    const { time_zone: _z, placeholders: _p, ...settings } = got;
    const on = await k.call('PUT', `/api/tenants/${k.a.id}/messages`, k.a.owner, {
      ...settings,
      quote_follow_up_days: 4,
      kinds: [{ ...follow, enabled: true }],
    });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    const sentQuote = async (name: string, phone: string) => {
      const q = await k.call('POST', '/sales/quotes', k.a.office, {
        customer: { name, email: `${name.split(' ')[0]!.toLowerCase()}@example.com`, phone },
        lines: [
          {
            ...{ product_code: 'wood-blind', room: 'Office', width_in: 40, drop_in: 50 },
            ...{ mount: 'inside', colour: 'Oak', options: [] },
          },
        ],
      });
      const sent = await k.call('POST', `/sales/quotes/${q.body.id}/send`, k.a.office);
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      return { id: q.body.id as string, token: sent.body.token as string };
    };
    const waits = await sentQuote('Quinn Waits', '303 555 0166');
    const looked = await sentQuote('Lou Looks', '303 555 0167');
    const view = await k.call('GET', `/portal/quotes/${looked.token}`, undefined, undefined, {
      'x-tenant-id': k.a.id,
    });
    expect(view.status).toBe(200);
    const { quoteId: accepted } = await acceptedOrder(k, k.a, { deposit: false, customer: 'Ada Accepts' });
    const rows = await k.kit.t.db.query<{ subject_id: string; due_at: Date }>(
      `SELECT subject_id, due_at FROM message_schedule WHERE kind = 'quote_follow_up' AND status = 'scheduled'`,
    );
    const wait = rows.rows.find((r) => r.subject_id === waits.id)!.due_at.getTime() - Date.now();
    expect(Math.round(wait / 86_400_000)).toBe(4);
    // Four days on: the rows fall due (a minute back: the database's now() has microseconds the app clock lacks).
    await k.kit.t.db.query(
      `UPDATE message_schedule SET due_at = now() - interval '1 minute' WHERE kind = 'quote_follow_up'`,
    );
    await send();
    const followUps = async (to: string) => (await texts(to)).filter((b) => b.includes('Any questions'));
    expect(await followUps('13035550166')).toEqual([
      expect.stringContaining('hi Quinn, your quote is waiting for you. Any questions about your quote'),
    ]);
    expect(await followUps('13035550167')).toEqual([
      expect.stringContaining('hi Lou, thank you for looking at your quote. Any questions about your quote'),
    ]);
    const log = await k.kit.t.db.query<{ subject_id: string; status: string; reason: string | null }>(
      `SELECT s.subject_id, l.status, l.reason FROM message_log l JOIN message_schedule s ON s.id = l.schedule_id
        WHERE l.kind = 'quote_follow_up'`,
    );
    const today = new Date().toISOString().slice(0, 10);
    expect(log.rows).toEqual(
      expect.arrayContaining([
        { subject_id: waits.id, status: 'sent', reason: 'the quote was not opened' },
        { subject_id: looked.id, status: 'sent', reason: `the quote was opened ${today}, not answered` },
        { subject_id: accepted, status: 'skipped', reason: 'the quote was answered' },
      ]),
    );
  });
});

describe('invoice reminders', () => {
  it('reminds of an unpaid invoice the tenant’s days after it is due, and not of one paid since', async () => {
    const got = (await k.call('GET', `/api/tenants/${k.a.id}/messages`, k.a.owner)).body;
    const { label: _, ...remind } = got.kinds.find((x: { kind: string }) => x.kind === 'invoice_reminder');
    const { time_zone: _z, placeholders: _p, ...settings } = got;
    await k.call('PUT', `/api/tenants/${k.a.id}/messages`, k.a.owner, {
      ...settings,
      kinds: [{ ...remind, enabled: true }],
    });
    const invoiceOf = async () => {
      const { orderId } = await acceptedOrder(k, k.a, { deposit: false, customer: 'Ivy Owes' });
      const r = await k.call('POST', `/jobs/${await completedJob(k, k.a, orderId)}/invoice`, k.a.office);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.invoice as { id: number; due_date: string; residual_minor: number };
    };
    const unpaid = await invoiceOf();
    const paid = await invoiceOf();
    const due = await k.kit.t.db.query<{ subject_id: string; due_at: Date }>(
      `SELECT subject_id, due_at FROM message_schedule WHERE kind = 'invoice_reminder'`,
    );
    const unpaidRow = due.rows.find((r) => r.subject_id === String(unpaid.id))!;
    expect(unpaidRow.due_at.getTime() - Date.parse(`${unpaid.due_date}T12:00:00Z`)).toBe(7 * 86_400_000);
    const pay = await k.call('POST', `/invoices/${paid.id}/payments`, k.a.office, {
      amount_minor: paid.residual_minor,
      method: 'cash',
    });
    expect(pay.status, JSON.stringify(pay.body)).toBe(201);
    await k.kit.t.db.query(
      `UPDATE message_schedule SET due_at = now() - interval '1 minute' WHERE kind = 'invoice_reminder'`,
    );
    await send();
    const log = await k.kit.t.db.query<{
      subject_id: string;
      status: string;
      reason: string | null;
      email_subject: string;
    }>(
      `SELECT s.subject_id, l.status, l.reason, l.email_subject FROM message_log l
         JOIN message_schedule s ON s.id = l.schedule_id WHERE l.kind = 'invoice_reminder'`,
    );
    expect(log.rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ subject_id: String(unpaid.id), status: 'sent', reason: null }),
        { subject_id: String(paid.id), status: 'skipped', reason: 'the invoice was paid', email_subject: null },
      ]),
    );
    expect(log.rows.find((r) => r.status === 'sent')!.email_subject).toMatch(/^Invoice .+ is due$/);
  });
});
