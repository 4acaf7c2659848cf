import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Clock } from '@platform/kernel';
import Fastify from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type { ConversionEvent } from './conversions.port.js';
import { localCapiRoutes, type RunningLocalCapiReceiver, startLocalCapiReceiver } from './local/local-capi.server.js';
import { createLogConversionsSender } from './log/log-conversions.sender.js';
import { ConversionsSendError, createMetaCapiSender, StaleConversionEventError } from './meta/meta-capi.client.js';
import {
  hashEmail,
  hashName,
  hashPhone,
  normalizeName,
  normalizePhone,
  sha256Hex,
  toMetaUserData,
} from './meta/meta-hashing.js';

const EMAIL_HASH = '62a14e44f765419d10fea99367361a727c12365e2520f32218d505ed9aa0f62f';
const PHONE_HASH = 'e323ec626319ca94ee8bff2e4c87cf613be6ea19919ed1364124e16807ab3176';
const MARY_HASH = '6915771be1c5aa0c886870b6951b03d7eafc121fea0e80a5ea83beb7c449f4ec';
/** What Meta receives for event()'s user: hashed identifiers, the click and browser ids as they are. */
const USER_DATA = {
  em: [EMAIL_HASH],
  ph: [PHONE_HASH],
  fn: MARY_HASH,
  ln: sha256Hex('oneilsmith'),
  client_ip_address: '203.0.113.7',
  client_user_agent: 'Mozilla/5.0 test',
  fbc: 'fb.1.1554763741205.AbCdEf',
  fbp: 'fb.1.1558571054389.1098115397',
};

const TOKEN = 'EAAB-secret-token-0123456789';
const PIXEL = '1234567890';
const NOW_MS = Date.UTC(2026, 0, 10, 12, 0, 0);
const NOW_S = NOW_MS / 1000;
const clock: Clock = { now: () => new Date(NOW_MS) };

function event(over: Partial<ConversionEvent> = {}): ConversionEvent {
  return {
    eventName: 'Lead',
    eventId: 'evt-1',
    eventTime: NOW_S - 60,
    eventSourceUrl: 'https://www.example.com/quote',
    actionSource: 'website',
    user: {
      email: '  John_Smith@Gmail.com ',
      phone: '(650) 555-1212',
      firstName: 'Mary',
      lastName: "O'Neil-Smith",
      clientIpAddress: '203.0.113.7',
      clientUserAgent: 'Mozilla/5.0 test',
      fbc: 'fb.1.1554763741205.AbCdEf',
      fbp: 'fb.1.1558571054389.1098115397',
    },
    customData: { content_name: 'Shutters quote' },
    ...over,
  };
}

describe('Meta hashing', () => {
  it('matches the reference test vectors', () => {
    expect(sha256Hex('john_smith@gmail.com')).toBe(EMAIL_HASH);
    expect(sha256Hex('16505551212')).toBe(PHONE_HASH);
    expect(sha256Hex('mary')).toBe(MARY_HASH);
  });

  it('normalises email (trim + lowercase)', () => {
    expect(hashEmail('  John_Smith@GMAIL.com\n')).toBe(EMAIL_HASH);
    expect(hashEmail('  ')).toBeUndefined();
  });

  it('normalises phone to E.164 digits with country code', () => {
    for (const p of ['16505551212', '+1 (650) 555-1212', '650-555-1212', '(650) 555 1212', '001 650 555 1212']) {
      expect(hashPhone(p, '1'), p).toBe(PHONE_HASH);
    }
    expect(hashPhone('+1 650 555 1212')).toBe(PHONE_HASH);
    expect(normalizePhone('020 7946 0018', '44')).toBe('442079460018');
    expect(normalizePhone('+44 (0)20 7946 0018')).toBe('442079460018');
    expect(normalizePhone('6505551212')).toBe('6505551212'); // no default country: digits only
    expect(normalizePhone('abc')).toBeUndefined();
  });

  it('normalises names (lowercase, no punctuation)', () => {
    expect(hashName(' Mary ')).toBe(MARY_HASH);
    expect(hashName("M.a-r'y")).toBe(MARY_HASH);
    expect(normalizeName("O'Neil-Smith")).toBe('oneilsmith');
    expect(normalizeName('Zoë')).toBe('zoë');
    expect(normalizeName('...')).toBeUndefined();
  });

  it('never hashes ip, user agent, fbc, fbp', () => {
    const ud = toMetaUserData(event().user, { defaultCountryCode: '1' });
    expect(ud).toEqual(USER_DATA);
  });
});

describe('Meta CAPI client against the local receiver (HTTP)', () => {
  let local: RunningLocalCapiReceiver;
  beforeAll(async () => {
    local = await startLocalCapiReceiver({ accessToken: TOKEN, pixelIds: [PIXEL], clock });
  });
  afterAll(async () => {
    await local.close();
  });
  beforeEach(() => local.receiver.clear());

  const sender = (over: Partial<Parameters<typeof createMetaCapiSender>[0]> = {}) =>
    createMetaCapiSender({
      graphUrl: local.url,
      pixelId: PIXEL,
      accessToken: TOKEN,
      defaultCountryCode: '1',
      clock,
      ...over,
    });

  async function failure(p: Promise<unknown>): Promise<ConversionsSendError> {
    const e = await p.then(
      () => {
        throw new Error('expected a failure');
      },
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(ConversionsSendError);
    const err = e as ConversionsSendError;
    expect(err.message).not.toContain(TOKEN);
    expect(String(err.stack)).not.toContain(TOKEN);
    expect(JSON.stringify({ ...err, message: err.message })).not.toContain(TOKEN);
    return err;
  }

  it('sends events in Meta wire shape', async () => {
    const r = await sender({ testEventCode: 'TEST123' }).send([
      event(),
      event({ eventId: 'evt-2', customData: undefined }),
    ]);
    expect(r).toEqual({ eventsReceived: 2 });
    const req = local.receiver.requests[0]!;
    expect(req).toMatchObject({ apiVersion: 'v21.0', pixelId: PIXEL, testEventCode: 'TEST123' });
    expect(req.events[0]).toEqual({
      event_name: 'Lead',
      event_time: NOW_S - 60,
      event_id: 'evt-1',
      action_source: 'website',
      event_source_url: 'https://www.example.com/quote',
      user_data: USER_DATA,
      custom_data: { content_name: 'Shutters quote' },
    });
    expect(req.events[1]).not.toHaveProperty('custom_data');
  });

  it('sends nothing for an empty list', async () => {
    expect(await sender().send([])).toEqual({ eventsReceived: 0 });
    expect(local.receiver.requests).toHaveLength(0);
  });

  it('splits more than 1000 events into batches', async () => {
    const many = Array.from({ length: 1001 }, (_, i) => event({ eventId: `e${i}` }));
    expect(await sender().send(many)).toEqual({ eventsReceived: 1001 });
    expect(local.receiver.requests.map((r) => r.events.length)).toEqual([1000, 1]);
  });

  it('refuses an event older than 7 days before sending', async () => {
    const err = await failure(
      sender().send([event(), event({ eventId: 'old', eventTime: NOW_S - 7 * 24 * 3600 - 1 })]),
    );
    expect(err).toBeInstanceOf(StaleConversionEventError);
    expect(err).toMatchObject({ kind: 'stale_event', retryable: false, eventIds: ['old'] });
    expect(local.receiver.requests).toHaveLength(0);
  });

  it('refuses events missing website requirements', async () => {
    await expect(sender().send([event({ user: { email: 'a@b.c' } })])).rejects.toMatchObject({
      kind: 'invalid_event',
      retryable: false,
    });
    await expect(sender().send([event({ eventSourceUrl: 'ftp://x' })])).rejects.toMatchObject({
      kind: 'invalid_event',
    });
    await expect(sender().send([event({ eventTime: NOW_MS })])).rejects.toMatchObject({ kind: 'invalid_event' });
  });

  it('a wrong token is a non-retryable Graph error whose message does not contain the token', async () => {
    const bad = `${TOKEN}-revoked`;
    const e = await failure(sender({ accessToken: bad }).send([event()]));
    expect(e.message).not.toContain(bad);
    expect(e).toMatchObject({ kind: 'rejected', retryable: false, status: 400, graphCode: 190 });
    expect(e.fbtraceId).toBeTruthy();
  });

  it('a Graph error echoing the token is redacted', async () => {
    local.receiver.failNext(1, {
      status: 400,
      body: { error: { message: `bad token ${TOKEN}`, type: 'OAuthException', code: 100 } },
    });
    const e = await failure(sender().send([event()]));
    expect(e.message).toContain('[redacted]');
    expect(e.retryable).toBe(false);
  });

  it('an unknown pixel is code 100', async () => {
    const e = await failure(sender({ pixelId: '999' }).send([event()]));
    expect(e).toMatchObject({ graphCode: 100, retryable: false });
  });

  it('HTTP 5xx is retryable', async () => {
    local.receiver.failNext(1);
    const e = await failure(sender().send([event()]));
    expect(e).toMatchObject({ retryable: true, status: 500 });
    expect(await sender().send([event()])).toEqual({ eventsReceived: 1 });
  });

  it('connection refused is retryable and does not leak the token', async () => {
    const s = createServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const port = (s.address() as AddressInfo).port;
    await new Promise<void>((r) => s.close(() => r()));
    const e = await failure(sender({ graphUrl: `http://127.0.0.1:${port}` }).send([event()]));
    expect(e).toMatchObject({ kind: 'network', retryable: true });
  });

  it('a timeout is retryable', async () => {
    const slow: Server = createServer((_req, res) => {
      setTimeout(() => res.end('{}'), 2000).unref();
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    try {
      const port = (slow.address() as AddressInfo).port;
      const e = await failure(sender({ graphUrl: `http://127.0.0.1:${port}`, timeoutMs: 100 }).send([event()]));
      expect(e).toMatchObject({ kind: 'timeout', retryable: true });
    } finally {
      slow.closeAllConnections();
      await new Promise<void>((r) => slow.close(() => r()));
    }
  });
});

describe('local CAPI receiver validation', () => {
  let local: RunningLocalCapiReceiver;
  beforeAll(async () => {
    local = await startLocalCapiReceiver({ accessToken: TOKEN, clock });
  });
  afterAll(async () => {
    await local.close();
  });

  const wire = (over: Record<string, unknown> = {}, ud: Record<string, unknown> = {}) => ({
    event_name: 'Lead',
    event_time: NOW_S,
    event_id: 'x',
    action_source: 'website',
    event_source_url: 'https://www.example.com/',
    user_data: { em: [EMAIL_HASH], client_user_agent: 'UA', ...ud },
    ...over,
  });
  async function post(body: unknown, query = `access_token=${TOKEN}`): Promise<{ status: number; json: any }> {
    const res = await fetch(`${local.url}/v21.0/${PIXEL}/events?${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: await res.json() };
  }

  it('accepts a valid request', async () => {
    const r = await post({ data: [wire()] });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ events_received: 1, messages: [] });
    expect(typeof r.json.fbtrace_id).toBe('string');
  });

  it.each([
    ['missing token', { data: [wire()] }, '', 190],
    ['no data', { data: [] }, undefined, 100],
    ['too many events', { data: Array.from({ length: 1001 }, () => wire()) }, undefined, 100],
    ['stale event', { data: [wire({ event_time: NOW_S - 8 * 24 * 3600 })] }, undefined, 100],
    ['millisecond time', { data: [wire({ event_time: NOW_MS })] }, undefined, 100],
    ['no action_source', { data: [wire({ action_source: undefined })] }, undefined, 100],
    ['no event_source_url', { data: [wire({ event_source_url: undefined })] }, undefined, 100],
    ['no user agent', { data: [wire({}, { client_user_agent: undefined })] }, undefined, 100],
    ['unhashed email', { data: [wire({}, { em: ['john@example.com'] })] }, undefined, 100],
    ['unhashed phone', { data: [wire({}, { ph: '16505551212' })] }, undefined, 100],
    ['hashed ip', { data: [wire({}, { client_ip_address: EMAIL_HASH })] }, undefined, 100],
  ])('rejects %s', async (_name, body, query, code) => {
    const r = await post(body, query);
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ type: 'OAuthException', code });
    expect(typeof r.json.error.fbtrace_id).toBe('string');
  });

  it('can be mounted on Fastify', async () => {
    const app = Fastify();
    await localCapiRoutes(app, { accessToken: TOKEN, clock });
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const s = createMetaCapiSender({ graphUrl: `${base}/local-graph`, pixelId: PIXEL, accessToken: TOKEN, clock });
      expect(await s.send([event()])).toEqual({ eventsReceived: 1 });
    } finally {
      await app.close();
    }
  });
});

describe('log conversions sender', () => {
  it('logs event ids only, no personal data', async () => {
    const lines: { obj: Record<string, unknown>; msg: string }[] = [];
    const s = createLogConversionsSender({ info: (obj, msg) => lines.push({ obj, msg }) });
    expect(await s.send([event(), event({ eventId: 'evt-2' })])).toEqual({ eventsReceived: 2 });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.obj).toMatchObject({ eventIds: ['evt-1', 'evt-2'], count: 2 });
    const dump = JSON.stringify(lines);
    for (const pii of ['John_Smith', 'john_smith', '650', 'Mary', '203.0.113.7', 'Mozilla', 'fb.1.'])
      expect(dump).not.toContain(pii);
  });
});
