/**
 * The Postmark adapter against the local Postmark stand-in: a sent message carries our tenant and
 * message ids in Metadata and goes to the right stream; outages, refused accounts and network
 * failures map onto the failure kinds that drive failover.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type EmailMessage, EmailSendError } from './email.port.js';
import { type RunningLocalPostmark, startLocalPostmark } from './local/local-postmark.server.js';
import { createPostmarkSender } from './postmark/postmark-email.sender.js';

let pm: RunningLocalPostmark;
let silent: Server;
const TOKEN = 'server-token-abcdef';
const msg = (over: Partial<EmailMessage> = {}): EmailMessage => ({
  id: '6c1f8a1e-0000-4000-8000-000000000001',
  tenantId: '6c1f8a1e-0000-4000-8000-0000000000aa',
  key: 'k1',
  lane: 'transactional',
  from: { address: 'no-reply@mail.acme.test', name: 'Acme' },
  to: { address: 'jane@example.com' },
  subject: 'Hi',
  text: 'Hello',
  html: '<p>Hello</p>',
  tags: ['password_reset'],
  ...over,
});
const kindOf = (p: Promise<unknown>) =>
  p.then(
    () => 'sent',
    (e: unknown) => (e instanceof EmailSendError ? e.kind : `other: ${String(e)}`),
  );

beforeAll(async () => {
  pm = await startLocalPostmark({ serverToken: TOKEN });
  silent = createServer(() => {}); // accepts and never answers
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
  await pm.close();
  silent.closeAllConnections();
  await new Promise((r) => silent.close(r));
});

describe('Postmark adapter', () => {
  it('sends transactional mail to the outbound stream and bulk to the broadcast stream, with our ids', async () => {
    const s = createPostmarkSender({ serverToken: TOKEN, baseUrl: pm.url });
    const r = await s.send(msg());
    expect(r.provider).toBe('postmark');
    expect(pm.sent.at(-1)).toMatchObject({
      messageId: r.providerMessageId,
      stream: 'outbound',
      from: '"Acme" <no-reply@mail.acme.test>',
      metadata: { tenant_id: msg().tenantId, message_id: msg().id },
    });
    await s.send(msg({ lane: 'bulk' }));
    expect(pm.sent.at(-1)?.stream).toBe('broadcast');
  });

  it('maps a wrong token and an account refusal to `account`, an outage to `unavailable`', async () => {
    expect(await kindOf(createPostmarkSender({ serverToken: 'wrong-token-000', baseUrl: pm.url }).send(msg()))).toBe(
      'account',
    );
    const s = createPostmarkSender({ serverToken: TOKEN, baseUrl: pm.url });
    pm.failWith('account');
    expect(await kindOf(s.send(msg()))).toBe('account');
    pm.failWith('unavailable');
    expect(await kindOf(s.send(msg()))).toBe('unavailable');
    pm.failWith(undefined);
    expect(await kindOf(s.send(msg()))).toBe('sent');
  });

  it('maps a timeout and a refused connection to `unavailable`', async () => {
    const port = (silent.address() as AddressInfo).port;
    expect(
      await kindOf(
        createPostmarkSender({ serverToken: TOKEN, baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 300 }).send(msg()),
      ),
    ).toBe('unavailable');
    expect(await kindOf(createPostmarkSender({ serverToken: TOKEN, baseUrl: 'http://127.0.0.1:1' }).send(msg()))).toBe(
      'unavailable',
    );
  });
});
