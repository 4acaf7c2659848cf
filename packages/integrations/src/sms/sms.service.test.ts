/**
 * SMS end to end against the local JustCall-style provider: sent from the default line through the
 * outbox, its status stored as the signed webhooks arrive; an inbound SMS read back from the
 * provider and posted on the chatter of its partner (or open lead, or a new lead); forged, stale
 * and duplicate webhooks change nothing.
 */
import { createJustCallSmsSender } from '@platform/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type SmsHarness, startSmsHarness } from './sms.test-harness.js';

let h: SmsHarness;
beforeAll(async () => {
  h = await startSmsHarness();
}, 180_000);
afterAll(async () => h?.close());

const sender = (s: { apiKey: string; apiSecret: string }) => createJustCallSmsSender({ ...s, baseUrl: h.provider.url });
const messageRow = async (id: string) => (await h.rows('SELECT * FROM sms_messages WHERE id = $1', [id]))[0]!;
const inboundFrom = async (contact: string) =>
  await h.rows(`SELECT * FROM sms_messages WHERE direction = 'inbound' AND contact_number = $1 ORDER BY created_at`, [
    contact,
  ]);
const chatter = (model: string, id: number) =>
  h.erp.erp.searchRead(
    'mail.message',
    [
      ['model', '=', model],
      ['res_id', '=', id],
    ],
    { fields: ['body', 'message_type', 'author_id', 'subtype_id', 'message_id'] },
  );

describe('SMS', () => {
  it('sends from the default line through the outbox and stores the provider id, then the delivered status', async () => {
    const q = await h.sms.queue(h.tenant, { to: '(720) 555-0123', body: 'Your installer arrives at 9 am.' });
    expect(q.from).toBe('13035550100');
    expect(await h.rows(`SELECT 1 FROM outbox WHERE topic = 'sms.send' AND aggregate_id = $1`, [q.id])).toHaveLength(1);
    const sent = await h.sms.deliver(h.tenant, q.id, sender);
    expect(h.provider.messages.at(-1)).toMatchObject({
      line: '13035550100',
      contact: '17205550123',
      body: 'Your installer arrives at 9 am.',
    });
    // A redelivered job does not send twice.
    await h.sms.deliver(h.tenant, q.id, sender);
    expect(h.provider.messages.filter((m) => m.body === 'Your installer arrives at 9 am.')).toHaveLength(1);
    await h.provider.flushWebhooks();
    expect(await messageRow(q.id)).toMatchObject({ provider_message_id: sent.providerMessageId, status: 'delivered' });
  });

  it('sends from the line of a type', async () => {
    const q = await h.sms.queue(h.tenant, { to: '7205550124', body: 'Ticket received.', lineType: 'support' });
    expect(q.from).toBe('13035550199');
  });

  it("posts a known customer's text on the partner's chatter, as the customer, where the office sees it", async () => {
    const partner = await h.erp.erp.create('res.partner', { name: 'Pat Known', phone: '(720) 555-0177' });
    await h.provider.simulateInbound({
      from: '17205550177',
      to: '13035550100',
      body: 'Can we move to Friday? <b>thanks</b>',
    });
    const [m] = await inboundFrom('17205550177');
    const r = await h.sms.attachInbound(m!.id, h.erp.erp);
    expect(r).toMatchObject({ model: 'res.partner', id: partner });
    expect(await chatter('res.partner', partner)).toEqual([
      expect.objectContaining({
        id: r.messageId,
        body: '<p>Can we move to Friday? &lt;b&gt;thanks&lt;/b&gt;</p>',
        message_type: 'sms',
        author_id: [partner, 'Pat Known'],
        subtype_id: [expect.any(Number), 'Discussions'],
      }),
    ]);
    expect(await messageRow(m!.id)).toMatchObject({
      erp_model: 'res.partner',
      erp_id: partner,
      erp_message_id: r.messageId,
    });
    // Done once: a redelivered job posts nothing more.
    expect(await h.sms.attachInbound(m!.id, h.erp.erp)).toEqual(r);
    expect(await chatter('res.partner', partner)).toHaveLength(1);
  });

  it('an unknown number gets a new lead with the text on its chatter; the next text goes on that open lead', async () => {
    await h.provider.simulateInbound({ from: '17205550999', to: '13035550100', body: 'Quote for shutters please' });
    await h.provider.simulateInbound({ from: '17205550999', to: '13035550100', body: 'Three windows' });
    const [first, second] = await inboundFrom('17205550999');
    const a = await h.sms.attachInbound(first!.id, h.erp.erp);
    expect(a.model).toBe('crm.lead');
    expect((await h.erp.erp.read('crm.lead', [a.id], ['phone', 'description']))[0]).toMatchObject({
      phone: '+17205550999',
      description: expect.stringContaining('Quote for shutters please'),
    });
    const b = await h.sms.attachInbound(second!.id, h.erp.erp);
    expect(b).toMatchObject({ model: 'crm.lead', id: a.id });
    expect((await chatter('crm.lead', a.id)).map((x) => x.body)).toEqual([
      '<p>Three windows</p>',
      '<p>Quote for shutters please</p>',
    ]);
  });

  it("a text from a number that merely contains a customer's digits makes a new lead, not a post on that customer", async () => {
    const other = await h.erp.erp.create('res.partner', { name: 'Ext Partner', phone: '+1 720 555 0130 ext. 188' });
    await h.erp.erp.create('crm.lead', { name: 'Open lead with digits', phone: '720 555 0130 x188', type: 'lead' });
    const samePerson = await h.erp.erp.create('res.partner', { name: 'Dotted Number', mobile: '720.555.0166' });
    await h.provider.simulateInbound({ from: '17205550188', to: '13035550100', body: 'Who is this?' });
    await h.provider.simulateInbound({ from: '17205550166', to: '13035550100', body: 'It is me' });
    const [stranger] = await inboundFrom('17205550188');
    const a = await h.sms.attachInbound(stranger!.id, h.erp.erp);
    expect(a.model).toBe('crm.lead');
    expect((await h.erp.erp.read('crm.lead', [a.id], ['name']))[0]!.name).toBe('SMS from +17205550188');
    expect(await chatter('res.partner', other)).toHaveLength(0);
    // The whole number typed another way is still the same customer.
    const [known] = await inboundFrom('17205550166');
    expect(await h.sms.attachInbound(known!.id, h.erp.erp)).toMatchObject({ model: 'res.partner', id: samePerson });
  });

  it('a provider that numbers from the start again: an inbound text is kept, a sent one is not sent twice', async () => {
    const nextId = () => String(Math.max(100_000, ...h.provider.messages.map((m) => m.id)) + 1);
    const holdId = (id: string) =>
      h.rows(
        `INSERT INTO sms_messages (tenant_id, direction, line_number, contact_number, body, provider_message_id, status)
         VALUES ($1, 'outbound', '13035550100', '17205550000', 'an old text', $2, 'delivered')`,
        [h.tenant, id],
      );
    await holdId(nextId());
    await h.provider.simulateInbound({ from: '17205550142', to: '13035550100', body: 'New number, new text' });
    const [kept] = await inboundFrom('17205550142');
    expect(kept).toMatchObject({ body: 'New number, new text', provider_message_id: null });
    expect(
      await h.rows(`SELECT 1 FROM outbox WHERE topic = 'sms.inbound' AND aggregate_id = $1`, [kept!.id]),
    ).toHaveLength(1);

    const q = await h.sms.queue(h.tenant, { to: '7205550143', body: 'Your blinds are ready.' });
    await holdId(nextId());
    await expect(h.sms.deliver(h.tenant, q.id, sender)).rejects.toThrow(/could not be recorded; not sent again/);
    expect(h.provider.messages.filter((m) => m.body === 'Your blinds are ready.')).toHaveLength(1);
    expect(await messageRow(q.id)).toMatchObject({ status: 'unconfirmed' });
  });

  it('ignores a duplicate delivery and refuses a forged or stale one', async () => {
    // The last webhook must have arrived once before it is sent again: a status notice of an earlier
    // send may still be on its way (it raced the resends under load and was handled as new).
    await h.provider.flushWebhooks();
    const before = (await h.rows('SELECT * FROM sms_messages')).length;
    await h.provider.resendWebhook(undefined, 2);
    expect(h.outcomes.slice(-2)).toEqual([
      { status: 200, handled: 'duplicate' },
      { status: 200, handled: 'duplicate' },
    ]);
    const forged = await fetch(h.hookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-justcall-signature': 'ab'.repeat(32),
        'x-justcall-request-timestamp': '2026-11-22 10:00:00',
      },
      body: JSON.stringify({
        request_id: 'forged-1',
        type: 'sms.received',
        data: { id: 1, contact_number: '1', justcall_number: '2', sms_info: { body: 'hi' } },
      }),
    });
    expect(forged.status).toBe(401);
    h.provider.advanceTime(-10 * 60_000);
    await h.provider.simulateInbound({ from: '17205550555', to: '13035550100', body: 'old' });
    expect(h.outcomes.at(-1)).toEqual({ status: 401, reason: 'stale_timestamp' });
    h.provider.advanceTime(10 * 60_000);
    expect((await h.rows('SELECT * FROM sms_messages')).length).toBe(before);
  });
});
