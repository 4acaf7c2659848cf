import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { AccountingError, type AccountingWebhookBatch } from './accounting.port.js';
import { adapters, connect, startStandIn, WEBHOOK_KEY } from './accounting.test-helpers.js';
import type { RunningLocalAccounting } from './local/local-accounting.server.js';
import { parseXeroWebhook, signXeroPayload, verifyXeroSignature, webhookEventKey } from './xero/xero-webhook.js';

describe('Xero webhook signature', () => {
  // GitHub's published HMAC-SHA256 vector (hex 757107ea…3e17), re-encoded in base64 as Xero sends it.
  const KEY = "It's a Secret to Everybody";
  const BODY = Buffer.from('Hello, World!');
  const SIG = 'dXEH6g6yUJ/CESIczphLijdXC211hsIsRvQ3nIsEPhc=';

  it('matches the fixed test vector', () => {
    expect(Buffer.from(SIG, 'base64').toString('hex')).toBe(
      '757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17',
    );
    expect(signXeroPayload(BODY, KEY)).toBe(SIG);
    expect(verifyXeroSignature(BODY, SIG, KEY)).toBe(true);
  });

  it('rejects a tampered body, a wrong key, a missing or altered header', () => {
    expect(verifyXeroSignature(Buffer.from('Hello, World?'), SIG, KEY)).toBe(false);
    expect(verifyXeroSignature(BODY, SIG, 'another key')).toBe(false);
    expect(verifyXeroSignature(BODY, undefined, KEY)).toBe(false);
    expect(verifyXeroSignature(BODY, '', KEY)).toBe(false);
    expect(verifyXeroSignature(BODY, SIG.replace('=', ''), KEY)).toBe(false);
    expect(verifyXeroSignature(BODY, `${SIG} `, KEY)).toBe(false);
    expect(verifyXeroSignature(BODY, SIG.toLowerCase(), KEY)).toBe(false);
    expect(verifyXeroSignature(BODY, SIG, '')).toBe(false);
  });

  it('parses the documented payload (eventDateUtc without Z is UTC)', () => {
    const raw = JSON.stringify({
      events: [
        {
          resourceUrl: 'https://api.xero.com/api.xro/2.0/Invoices/717f',
          resourceId: '717f',
          eventDateUtc: '2024-06-21T01:15:39.902',
          eventType: 'UPDATE',
          eventCategory: 'INVOICE',
          tenantId: 'c2cc',
          tenantType: 'ORGANISATION',
        },
      ],
      firstEventSequence: 1,
      lastEventSequence: 1,
      entropy: 'S0m3r4Nd0mt3xt',
    });
    const batch = parseXeroWebhook(Buffer.from(raw));
    expect(batch.isIntentToReceive).toBe(false);
    expect(batch.events[0]?.occurredAt.toISOString()).toBe('2024-06-21T01:15:39.902Z');
    expect(webhookEventKey(batch.events[0]!)).toBe('c2cc:717f:2024-06-21T01:15:39.902');
    expect(
      parseXeroWebhook('{"events":[],"firstEventSequence":0,"lastEventSequence":0,"entropy":"x"}').isIntentToReceive,
    ).toBe(true);
    for (const bad of ['nope', '{}', '{"events":[{"resourceId":1}],"firstEventSequence":0,"lastEventSequence":0}']) {
      expect(() => parseXeroWebhook(bad)).toThrow(AccountingError);
    }
  });
});

/** A receiver that follows Xero's rules: verify raw bytes, 401 on bad signature, 200 + empty body. */
async function startReceiver(
  key: string,
): Promise<{ app: FastifyInstance; url: string; batches: AccountingWebhookBatch[]; rejected: number }> {
  const state = { batches: [] as AccountingWebhookBatch[], rejected: 0 };
  const app = Fastify();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_r, body, done) => done(null, body));
  app.post('/acct/webhook', async (req, reply) => {
    const raw = req.body as Buffer;
    const sig = req.headers['x-xero-signature'];
    if (!verifyXeroSignature(raw, typeof sig === 'string' ? sig : undefined, key)) {
      state.rejected++;
      return reply.code(401).send();
    }
    state.batches.push(parseXeroWebhook(raw));
    return reply.code(200).send();
  });
  const url = `${await app.listen({ host: '127.0.0.1', port: 0 })}/acct/webhook`;
  return Object.assign(state, { app, url });
}

describe('payment webhooks from the local stand-in', () => {
  let local: RunningLocalAccounting;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let api: ReturnType<typeof adapters>['api'];
  let accessToken: string;
  let tenantId: string;
  beforeAll(async () => {
    receiver = await startReceiver(WEBHOOK_KEY);
    local = await startStandIn({ webhookUrl: receiver.url });
    tenantId = local.tenants[0]!.tenantId;
    const a = adapters(local);
    api = a.api;
    accessToken = (await connect(a.oauth)).accessToken;
  });
  afterAll(async () => {
    await local.close();
    await receiver.app.close();
  });
  beforeEach(() => {
    receiver.batches.length = 0;
    receiver.rejected = 0;
  });

  async function invoice(ref: string) {
    const auth = { accessToken, tenantId };
    const { contactId } = await api.upsertContact(auth, { name: `Customer ${ref}`, contactNumber: ref });
    return api.createInvoice(auth, {
      contactId,
      reference: ref,
      date: '2026-01-10',
      lineAmountTypes: 'NoTax',
      status: 'AUTHORISED',
      lines: [{ description: 'Shutters', quantity: 2, unitAmount: 180, accountCode: '200' }],
    });
  }

  it('sends a signed INVOICE/UPDATE event when a payment is made over the API, and the invoice reads PAID', async () => {
    const inv = await invoice('JOB-W1');
    const res = await fetch(`${local.url}/api.xro/2.0/Payments`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${accessToken}`,
        'xero-tenant-id': tenantId,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify({
        Payments: [
          { Invoice: { InvoiceID: inv.invoiceId }, Account: { Code: '090' }, Date: '2026-01-31', Amount: 360 },
        ],
      }),
    });
    expect(res.status).toBe(200);
    await local.flushWebhooks();
    expect(receiver.rejected).toBe(0);
    const ev = receiver.batches[0]?.events[0];
    expect(ev).toMatchObject({
      resourceId: inv.invoiceId,
      eventType: 'UPDATE',
      eventCategory: 'INVOICE',
      tenantId,
      tenantType: 'ORGANISATION',
    });
    expect(ev?.resourceUrl).toBe(`${local.url}/api.xro/2.0/Invoices/${inv.invoiceId}`);
    expect(ev?.eventDateUtc).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);
    expect(await api.getInvoice({ accessToken, tenantId }, ev!.resourceId)).toMatchObject({
      status: 'PAID',
      amountDue: 0,
      amountPaid: 360,
    });
    expect(local.webhooks.at(-1)?.attempts[0]).toMatchObject({ status: 200, emptyBody: true });
  });

  it('delivers the same event again on re-delivery (receivers must dedupe)', async () => {
    const inv = await invoice('JOB-W2');
    local.recordPayment({ invoiceId: inv.invoiceId, amount: 100 });
    await local.flushWebhooks();
    expect(await local.redeliverWebhook(undefined, 3)).toEqual([200, 200, 200]);
    expect(receiver.batches).toHaveLength(4);
    expect(new Set(receiver.batches.map((b) => webhookEventKey(b.events[0]!))).size).toBe(1);
  });

  it('is rejected by a receiver holding another key (forged signature → 401)', async () => {
    const other = await startReceiver('not-the-webhook-key');
    try {
      local.setWebhookUrl(other.url);
      const inv = await invoice('JOB-W3');
      local.recordPayment({ invoiceId: inv.invoiceId, amount: 10 });
      await local.flushWebhooks();
      expect(other.rejected).toBe(1);
      expect(other.batches).toHaveLength(0);
      expect(local.webhooks.at(-1)?.attempts[0]?.status).toBe(401);
    } finally {
      local.setWebhookUrl(receiver.url);
      await other.app.close();
    }
  });

  it('runs intent-to-receive: a correct receiver passes, one that accepts everything fails', async () => {
    const ok = await local.sendIntentToReceive({ correct: 3, incorrect: 3 });
    expect(ok.passed).toBe(true);
    expect(ok.probes.filter((p) => p.status === 401)).toHaveLength(3);
    expect(receiver.rejected).toBe(3);

    const lax = Fastify();
    lax.post('/', async (_req, reply) => reply.code(200).send());
    local.setWebhookUrl(await lax.listen({ host: '127.0.0.1', port: 0 }));
    try {
      expect((await local.sendIntentToReceive({ correct: 1, incorrect: 2 })).passed).toBe(false);
    } finally {
      local.setWebhookUrl(receiver.url);
      await lax.close();
    }
  });
});
