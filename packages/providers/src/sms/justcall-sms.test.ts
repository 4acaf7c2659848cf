import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { createJustCallSmsSender } from './justcall/justcall-sms.client.js';
import { createJustCallTextsReader } from './justcall/justcall-texts.client.js';
import { createJustCallWebhookReceiver } from './justcall/justcall-webhook.js';
import { type RunningLocalSms, startLocalSms } from './local/local-sms.server.js';
import { createLogSmsSender } from './log/log-sms.sender.js';
import { SmsError, type SmsEvent, type SmsWebhookReceiver, type SmsWebhookResult } from './sms.port.js';

const KEY = 'jc-key';
const SECRET = 'jc-secret-abcdef';
const WEBHOOK_SECRET = 'jc-webhook-secret';
const LINE = '12135661234';
const CUSTOMER = '16505551212';

async function failure(p: Promise<unknown>): Promise<SmsError> {
  const e = await p.then(
    () => new Error('expected a failure'),
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(SmsError);
  expect((e as Error).message).not.toContain(SECRET);
  return e as SmsError;
}

describe('JustCall adapter against the local SMS stand-in', () => {
  let local: RunningLocalSms;
  let hook: FastifyInstance;
  const results: SmsWebhookResult[] = [];
  const seen = new Set<string>();
  const effects: SmsEvent[] = [];
  let sender: ReturnType<typeof createJustCallSmsSender>;

  beforeAll(async () => {
    local = await startLocalSms({
      apiKey: KEY,
      apiSecret: SECRET,
      webhookSecret: WEBHOOK_SECRET,
      lines: [{ number: LINE, name: 'Sales Line' }],
    });
    hook = Fastify();
    hook.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_r, body, done) => done(null, body));
    hook.post('/sms/webhook/sms', async (req, reply) => {
      const r = receiver.receive({ headers: req.headers, rawBody: req.body as Buffer });
      results.push(r);
      if (!r.ok) return reply.code(r.reason === 'malformed' ? 400 : 401).send();
      if (r.event && !seen.has(r.event.eventId)) {
        seen.add(r.event.eventId);
        effects.push(r.event);
      }
      return reply.code(200).send();
    });
    const webhookUrl = `${await hook.listen({ host: '127.0.0.1', port: 0 })}/sms/webhook/sms`;
    // The receiver shares the stand-in's clock, so advanceTime ages captured deliveries.
    const receiver: SmsWebhookReceiver = createJustCallWebhookReceiver({
      secret: WEBHOOK_SECRET,
      webhookUrl,
      clock: { now: () => local.now() },
    });
    local.setWebhookUrl(webhookUrl);
    sender = createJustCallSmsSender({ apiKey: KEY, apiSecret: SECRET, baseUrl: local.url });
  });
  afterAll(async () => {
    await local.close();
    await hook.close();
  });
  beforeEach(() => {
    results.length = 0;
    effects.length = 0;
  });

  it('sends an SMS, then receives signed sms.sent and sms.delivered webhooks that verify', async () => {
    const r = await sender.send({ from: LINE, to: CUSTOMER, body: 'Your install is booked for Tuesday 9am.' });
    expect(r.status).toBe('queued');
    expect(local.messages.at(-1)).toMatchObject({
      id: Number(r.providerMessageId),
      line: LINE,
      contact: CUSTOMER,
      direction: 'Outgoing',
    });
    await local.flushWebhooks();
    expect(results.every((x) => x.ok)).toBe(true);
    expect(effects.map((e) => [e.type, e.providerMessageId, e.line, e.contact])).toEqual([
      ['sms.sent', r.providerMessageId, LINE, CUSTOMER],
      ['sms.delivered', r.providerMessageId, LINE, CUSTOMER],
    ]);
    expect(effects[1]?.status).toBe('delivered');
  });

  it('delivers an inbound SMS as sms.received', async () => {
    const { providerMessageId } = await local.simulateInbound({
      from: CUSTOMER,
      to: LINE,
      body: 'Can we move it to Wednesday?',
    });
    expect(effects).toHaveLength(1);
    expect(effects[0]).toMatchObject({
      type: 'sms.received',
      providerMessageId,
      line: LINE,
      lineName: 'Sales Line',
      contact: CUSTOMER,
      body: 'Can we move it to Wednesday?',
    });
  });

  it('re-sends a webhook as a duplicate that verifies but dedupes on eventId', async () => {
    const { eventId } = await local.simulateInbound({ from: CUSTOMER, to: LINE, body: 'Thanks!' });
    expect(await local.resendWebhook(eventId, 2)).toEqual([200, 200]);
    expect(results.filter((x) => x.ok)).toHaveLength(3);
    expect(effects).toHaveLength(1);
  });

  it('rejects a replay of a captured webhook once its timestamp is more than 5 minutes old', async () => {
    const { eventId } = await local.simulateInbound({ from: CUSTOMER, to: LINE, body: 'Old news' });
    local.advanceTime(299_000);
    expect(await local.resendWebhook(eventId)).toEqual([200]);
    local.advanceTime(2_000);
    expect(await local.resendWebhook(eventId)).toEqual([401]);
    expect(results.at(-1)).toEqual({ ok: false, reason: 'stale_timestamp' });
    expect(effects).toHaveLength(1);
  });

  it('reads a text back by id as the provider has it (a webhook body is only a notice), null for an unknown id', async () => {
    const reader = createJustCallTextsReader({ apiKey: KEY, apiSecret: SECRET, baseUrl: local.url });
    const { providerMessageId } = await local.simulateInbound({ from: CUSTOMER, to: LINE, body: 'Read me back' });
    const m = await reader.getMessage(providerMessageId);
    expect(m).toMatchObject({
      providerMessageId,
      direction: 'inbound',
      line: LINE,
      contact: CUSTOMER,
      body: 'Read me back',
      status: 'received',
    });
    expect(Math.abs(m!.createdAt!.getTime() - local.now().getTime())).toBeLessThan(2_000);
    const sent = await sender.send({ from: LINE, to: CUSTOMER, body: 'Outbound' });
    await local.flushWebhooks();
    expect(await reader.getMessage(sent.providerMessageId)).toMatchObject({
      direction: 'outbound',
      status: 'delivered',
      body: 'Outbound',
    });
    expect(await reader.getMessage('999999999')).toBeNull();
    expect(await reader.getMessage('../v2.1/texts/new')).toBeNull();
    const wrong = createJustCallTextsReader({ apiKey: KEY, apiSecret: 'wrong-secret', baseUrl: local.url });
    expect((await failure(wrong.getMessage(providerMessageId))).kind).toBe('unauthorized');
  });

  it('refuses wrong credentials as unauthorized', async () => {
    const bad = createJustCallSmsSender({ apiKey: KEY, apiSecret: 'wrong-secret', baseUrl: local.url });
    expect((await failure(bad.send({ from: LINE, to: CUSTOMER, body: 'x' }))).kind).toBe('unauthorized');
  });

  it('turns a 429 into a retryable rate_limited error with the Retry-After hint', async () => {
    local.failNext(1, 429);
    const e = await failure(sender.send({ from: LINE, to: CUSTOMER, body: 'x' }));
    expect(e).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterSeconds: 30 });
    expect(e.retryable).toBe(true);
    local.failNext(1, 503);
    expect((await failure(sender.send({ from: LINE, to: CUSTOMER, body: 'x' }))).retryable).toBe(true);
  });

  it('refuses a line that is not ours (rejected) and bad input before sending', async () => {
    const e = await failure(sender.send({ from: '14155550100', to: CUSTOMER, body: 'x' }));
    expect(e.kind).toBe('rejected');
    expect(e.retryable).toBe(false);
    const before = local.messages.length;
    expect((await failure(sender.send({ from: LINE, to: '+16505551212', body: 'x' }))).kind).toBe('invalid_input');
    expect((await failure(sender.send({ from: LINE, to: CUSTOMER, body: 'x'.repeat(1601) }))).kind).toBe(
      'invalid_input',
    );
    expect(local.messages.length).toBe(before);
  });
});

describe('SMS log driver', () => {
  it('sends nothing and logs ids only, never numbers or text', async () => {
    const lines: string[] = [];
    const sender = createLogSmsSender({ info: (obj, msg) => lines.push(JSON.stringify(obj) + msg) });
    const r = await sender.send({ from: LINE, to: CUSTOMER, body: 'secret appointment text' });
    expect(r.providerMessageId).toMatch(/^log-/);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(r.providerMessageId);
    for (const leak of [LINE, CUSTOMER, 'secret appointment']) expect(lines[0]).not.toContain(leak);
  });
});
