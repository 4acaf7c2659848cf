/**
 * An SMTP primary that refuses the whole session (a 554 greeting) is an unavailable provider, not a
 * bad message: on two real SMTP servers (smtp-server on loopback), the mail fails over and arrives
 * exactly once on the secondary, and the message is recorded as sent there. A primary refusing the
 * recipient is still the message's fault: dead-lettered, nothing sent anywhere.
 */
import type { AddressInfo } from 'node:net';

import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type EmailHarness, startEmailHarness } from './test-support/email-harness.js';

const refusal = (code: number, text: string) => Object.assign(new Error(text), { responseCode: code });

async function primary(
  hooks: Partial<SMTPServerOptions>,
): Promise<{ url: string; sessions: () => number; close(): Promise<void> }> {
  let sessions = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData: (stream, _s, cb) => (stream.on('data', () => {}), stream.on('end', () => cb(null, 'Ok'))),
    ...hooks,
    onConnect: (session, cb) => {
      sessions++;
      if (hooks.onConnect) hooks.onConnect(session, cb);
      else cb();
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    sessions: () => sessions,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function messageRow(h: EmailHarness, id: string) {
  return (
    await h.t.db.query<{ status: string; provider: string | null; ob_status: string; attempts: number }>(
      `SELECT m.status, m.provider, o.status AS ob_status, o.attempts
         FROM email_messages m JOIN outbox o ON o.aggregate_id = m.id::text WHERE m.id = $1`,
      [id],
    )
  ).rows[0]!;
}

const reset = (h: EmailHarness, to: string, key: string) =>
  h.lanes.services.outbox.enqueue({
    tenantId: h.acme,
    template: 'password_reset',
    to: { address: to },
    key,
    data: { name: 'Jane Roe', resetUrl: `https://app.acme.test/reset?token=${key}` },
  });

describe('an SMTP primary greeting with 554', () => {
  let refusing: Awaited<ReturnType<typeof primary>>;
  let h: EmailHarness;
  beforeAll(async () => {
    refusing = await primary({ onConnect: (_s, cb) => cb(refusal(554, 'no service here')) });
    // No Postmark: the primary is SMTP (EMAIL_SMTP_URL), the secondary the harness's SMTP server.
    h = await startEmailHarness({ POSTMARK_SERVER_TOKEN: undefined, EMAIL_SMTP_URL: refusing.url });
  });
  afterAll(async () => {
    await h?.close();
    await refusing?.close();
  });

  it('fails over: the mail arrives exactly once on the secondary', async () => {
    const { messageId } = await reset(h, 'greeting@example.com', 'greeting-554');
    expect(await h.lanes.transactional.tick()).toBe(1);
    await h.smtp.waitFor(1);
    await h.lanes.transactional.tick(); // nothing left to redeliver
    await new Promise((r) => setTimeout(r, 100));
    expect(refusing.sessions()).toBeGreaterThanOrEqual(1); // the primary was tried
    expect(h.smtp.mails.filter((m) => m.envelopeTo.includes('greeting@example.com'))).toHaveLength(1);
    expect(await messageRow(h, messageId)).toMatchObject({ status: 'sent', provider: 'ses', ob_status: 'done' });
  });
});

describe('an SMTP primary refusing the recipient', () => {
  let refusing: Awaited<ReturnType<typeof primary>>;
  let h: EmailHarness;
  beforeAll(async () => {
    refusing = await primary({ onRcptTo: (_a, _s, cb) => cb(refusal(550, 'no such user')) });
    h = await startEmailHarness({ POSTMARK_SERVER_TOKEN: undefined, EMAIL_SMTP_URL: refusing.url });
  });
  afterAll(async () => {
    await h?.close();
    await refusing?.close();
  });

  it('is the message fault: dead-lettered after one attempt, sent nowhere', async () => {
    const { messageId } = await reset(h, 'nobody@example.com', 'rcpt-550');
    await h.lanes.transactional.tick();
    expect(await messageRow(h, messageId)).toMatchObject({ status: 'failed', ob_status: 'dead', attempts: 1 });
    expect(h.smtp.mails).toHaveLength(0);
  });
});
