/**
 * Two companies at the same SMS provider host, as at JustCall: each account's key sends from and
 * reads back only its own texts, and a customer's text to a line is delivered to the account that
 * has the line, at its webhook URL, signed with its secret.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createJustCallSmsSender } from '../justcall/justcall-sms.client.js';
import { createJustCallTextsReader } from '../justcall/justcall-texts.client.js';
import { verifyJustCallSignature } from '../justcall/justcall-webhook.js';
import { type RunningLocalSms, startLocalSms } from './local-sms.server.js';

const A = { apiKey: 'key-a', apiSecret: 'secret-a', webhookSecret: 'whsec-a' };
const B = { apiKey: 'key-b', apiSecret: 'secret-b', webhookSecret: 'whsec-b' };
const received: { path: string; headers: Record<string, unknown> }[] = [];
let hook: Server;
let base: string;
let sms: RunningLocalSms;

beforeAll(async () => {
  hook = createServer((req, res) => {
    received.push({ path: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(hook.address() as AddressInfo).port}`;
  sms = await startLocalSms({
    ...A,
    webhookUrl: `${base}/a`,
    lines: [{ number: '13035550100', name: 'A Sales' }],
    accounts: [{ ...B, webhookUrl: `${base}/b`, lines: [{ number: '14155550100', name: 'B Sales' }] }],
  });
});
afterAll(async () => {
  await sms?.close();
  await new Promise<void>((r) => hook.close(() => r()));
});

describe('the local SMS stand-in with two accounts', () => {
  it("sends only from the account's own lines and reads back only its own texts", async () => {
    const senderB = createJustCallSmsSender({ ...B, baseUrl: sms.url });
    await expect(senderB.send({ from: '13035550100', to: '17205550123', body: 'Not my line' })).rejects.toThrow();
    const sent = await senderB.send({ from: '14155550100', to: '17205550123', body: 'From B' });
    await sms.flushWebhooks();
    expect(
      await createJustCallTextsReader({ ...B, baseUrl: sms.url }).getMessage(sent.providerMessageId),
    ).toMatchObject({ body: 'From B' });
    expect(await createJustCallTextsReader({ ...A, baseUrl: sms.url }).getMessage(sent.providerMessageId)).toBeNull();
  });

  it("delivers a text to B's line to B's webhook URL, signed with B's secret only", async () => {
    received.length = 0;
    await sms.simulateInbound({ from: '+1 720 555 0188', to: '+1 415 555 0100', body: 'Hello B' });
    expect(received.map((r) => r.path)).toEqual(['/b']);
    const h = received[0]!.headers;
    const signed = (secret: string) =>
      verifyJustCallSignature({
        secret,
        webhookUrl: `${base}/b`,
        type: 'sms.received',
        timestamp: String(h['x-justcall-request-timestamp']),
        signature: String(h['x-justcall-signature']),
      });
    expect(signed(B.webhookSecret)).toBe(true);
    expect(signed(A.webhookSecret)).toBe(false);
    expect(sms.messages.at(-1)).toMatchObject({ account: 'key-b', lineName: 'B Sales' });
  });
});
