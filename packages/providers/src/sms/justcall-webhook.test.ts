import { describe, expect, it } from 'vitest';

import {
  createJustCallWebhookReceiver,
  formatJustCallTimestamp,
  parseJustCallTimestamp,
  signJustCall,
  verifyJustCallSignature,
} from './justcall/justcall-webhook.js';
import { normalizePhone } from './phone.js';

// JustCall's documented example (developer.justcall.io, "Dynamic Webhook Signatures").
const DOC = {
  secret: 'ea39089c40790e9dc7a080ec95e849b8fa0fa5fb',
  webhookUrl: 'https://webhook.site/3bcea770-370a-4b09-8b66-426f687e08a4',
  type: 'call.completed',
  timestamp: '2024-03-21 17:08:22',
  signature: '56761bae5b27a784a3ddd2af828bc5def7176bc0a8650199b04c737bd39bbecf',
};

const SECRET = 'webhook-secret-123';
const URL_ = 'https://erp.example.com/sms/webhook/sms';
const NOW = new Date('2026-01-10T12:00:00Z');
const clock = { now: () => NOW };

function delivery(
  over: { type?: string; timestamp?: string; url?: string; secret?: string; data?: Record<string, unknown> } = {},
) {
  const type = over.type ?? 'sms.received';
  const timestamp = over.timestamp ?? formatJustCallTimestamp(NOW);
  const body = JSON.stringify({
    request_id: '01HQAMVFRC4HZ0144TDS0001',
    webhook_url: URL_,
    url_id: '65d5',
    type,
    data: {
      id: 123455,
      contact_number: '16813811234',
      justcall_number: '12135661234',
      justcall_line_name: 'Sales Line',
      sms_date: '2026-01-10',
      sms_time: '11:59:58',
      direction: 'Incoming',
      sms_info: { body: 'Is Tuesday OK?' },
      delivery_status: 'delivered',
      ...over.data,
    },
  });
  const signature = signJustCall({ secret: over.secret ?? SECRET, webhookUrl: over.url ?? URL_, type, timestamp });
  return {
    rawBody: Buffer.from(body),
    headers: {
      'x-justcall-signature': signature,
      'x-justcall-signature-version': 'v1',
      'x-justcall-request-timestamp': timestamp,
    },
  };
}

describe('JustCall webhook signature', () => {
  it('reproduces the documented signature', () => {
    expect(signJustCall(DOC)).toBe(DOC.signature);
    expect(verifyJustCallSignature(DOC)).toBe(true);
  });

  it('rejects a changed type, URL, timestamp, secret or signature', () => {
    expect(verifyJustCallSignature({ ...DOC, type: 'sms.received' })).toBe(false);
    expect(verifyJustCallSignature({ ...DOC, webhookUrl: `${DOC.webhookUrl}/` })).toBe(false);
    expect(verifyJustCallSignature({ ...DOC, timestamp: '2024-03-21 17:08:23' })).toBe(false);
    expect(verifyJustCallSignature({ ...DOC, secret: 'other' })).toBe(false);
    expect(verifyJustCallSignature({ ...DOC, signature: DOC.signature.replace('5', '6') })).toBe(false);
    expect(verifyJustCallSignature({ ...DOC, signature: 'zz' })).toBe(false);
    expect(verifyJustCallSignature({ ...DOC, signature: undefined })).toBe(false);
  });

  it('reads timestamps as UTC text or Unix seconds', () => {
    expect(parseJustCallTimestamp('2024-03-21 17:08:22')?.toISOString()).toBe('2024-03-21T17:08:22.000Z');
    expect(parseJustCallTimestamp('1711040902')?.toISOString()).toBe('2024-03-21T17:08:22.000Z');
    expect(parseJustCallTimestamp('yesterday')).toBeUndefined();
  });
});

describe('JustCall webhook receiver', () => {
  const receiver = createJustCallWebhookReceiver({ secret: SECRET, webhookUrl: URL_, clock });

  it('accepts a signed, fresh sms.received and normalises it', () => {
    const r = receiver.receive(delivery());
    expect(r).toMatchObject({
      ok: true,
      event: {
        type: 'sms.received',
        eventId: '01HQAMVFRC4HZ0144TDS0001',
        providerMessageId: '123455',
        line: '12135661234',
        lineName: 'Sales Line',
        contact: '16813811234',
        body: 'Is Tuesday OK?',
        status: 'received',
      },
    });
    expect(r.ok && r.event?.occurredAt.toISOString()).toBe('2026-01-10T11:59:58.000Z');
  });

  it('maps sms.delivered with its delivery status, and splits sms.sent_received by direction', () => {
    expect(
      receiver.receive(
        delivery({ type: 'sms.delivered', data: { direction: 'Outgoing', delivery_status: 'undelivered' } }),
      ),
    ).toMatchObject({ ok: true, event: { type: 'sms.delivered', status: 'undelivered' } });
    expect(receiver.receive(delivery({ type: 'sms.sent_received', data: { direction: 'Outgoing' } }))).toMatchObject({
      ok: true,
      event: { type: 'sms.sent' },
    });
    expect(receiver.receive(delivery({ type: 'sms.sent_received' }))).toMatchObject({
      ok: true,
      event: { type: 'sms.received' },
    });
  });

  it('acknowledges verified non-SMS events without an event', () => {
    expect(receiver.receive(delivery({ type: 'call.completed' }))).toEqual({
      ok: true,
      event: null,
      type: 'call.completed',
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
      signedAt: NOW,
    });
  });

  it('rejects timestamps outside ±300 s and accepts them at the edge', () => {
    const at = (s: number) => formatJustCallTimestamp(new Date(NOW.getTime() + s * 1000));
    expect(receiver.receive(delivery({ timestamp: at(-301) }))).toEqual({ ok: false, reason: 'stale_timestamp' });
    expect(receiver.receive(delivery({ timestamp: at(301) }))).toEqual({ ok: false, reason: 'stale_timestamp' });
    expect(receiver.receive(delivery({ timestamp: at(-300) })).ok).toBe(true);
    expect(receiver.receive(delivery({ timestamp: at(300) })).ok).toBe(true);
  });

  it('rejects a wrong secret, a signature for another URL, a changed type and missing headers', () => {
    expect(receiver.receive(delivery({ secret: 'wrong' }))).toEqual({ ok: false, reason: 'bad_signature' });
    expect(receiver.receive(delivery({ url: 'https://evil.example.com/hook' }))).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    const d = delivery({ type: 'sms.sent' });
    const tampered = Buffer.from(d.rawBody.toString().replace('"sms.sent"', '"sms.received"'));
    expect(receiver.receive({ ...d, rawBody: tampered })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(receiver.receive({ rawBody: d.rawBody, headers: {} })).toEqual({ ok: false, reason: 'missing_signature' });
  });

  it('during a rotation overlap accepts either secret, and nothing else', () => {
    const rotating = createJustCallWebhookReceiver({ secret: ['new-secret-456', SECRET], webhookUrl: URL_, clock });
    expect(rotating.receive(delivery({ secret: 'new-secret-456' })).ok).toBe(true);
    expect(rotating.receive(delivery()).ok).toBe(true);
    expect(rotating.receive(delivery({ secret: 'wrong' }))).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('reports a malformed body', () => {
    expect(receiver.receive({ ...delivery(), rawBody: 'not json' })).toEqual({ ok: false, reason: 'malformed' });
    expect(receiver.receive(delivery({ data: { id: null } }))).toEqual({ ok: false, reason: 'malformed' });
  });
});

describe('normalizePhone', () => {
  it('returns E.164 digits without + using the configured default region', () => {
    expect(normalizePhone('(650) 555-1212', 'US')).toBe('16505551212');
    expect(normalizePhone('+1 650 555 1212')).toBe('16505551212');
    expect(normalizePhone('0044 20 7946 0018', 'US')).toBe('442079460018');
    expect(normalizePhone('020 7946 0018', 'GB')).toBe('442079460018');
    expect(normalizePhone('0412 345 678', 'au')).toBe('61412345678');
  });

  it('refuses what it cannot place or validate', () => {
    expect(normalizePhone('(650) 555-1212')).toBeUndefined();
    expect(normalizePhone('12345', 'US')).toBeUndefined();
    expect(normalizePhone('call me', 'US')).toBeUndefined();
    expect(normalizePhone('', 'US')).toBeUndefined();
    expect(normalizePhone(undefined, 'US')).toBeUndefined();
  });
});
