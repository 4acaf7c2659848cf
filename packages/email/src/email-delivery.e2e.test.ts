/**
 * Email end to end on a real SMTP server on loopback: the outbox lanes send through the local
 * Postmark stand-in (which relays to the SMTP server) or, when it fails, through the secondary
 * (SMTP, as SES's SMTP interface); signed bounce webhooks feed the suppression list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type EmailHarness, startEmailHarness } from './test-support/email-harness.js';

let h: EmailHarness;
beforeAll(async () => {
  h = await startEmailHarness();
});
afterAll(async () => h?.close());

const reset = (tenantId: string, to: string, key: string) =>
  h.lanes.services.outbox.enqueue({
    tenantId,
    template: 'password_reset',
    to: { address: to },
    key,
    data: { name: 'Jane Roe', resetUrl: `https://app.acme.test/reset?token=${key}` },
  });
const status = async (id: string) =>
  (
    await h.t.db.query<{
      status: string;
      provider: string | null;
      provider_message_id: string | null;
      last_error: string | null;
    }>('SELECT status, provider, provider_message_id, last_error FROM email_messages WHERE id = $1', [id])
  ).rows[0]!;

describe('sending', () => {
  it("delivers a password-reset mail from the tenant's own domain, with its branding", async () => {
    const { messageId } = await reset(h.acme, 'jane@example.com', 'reset-1');
    expect(await h.lanes.transactional.tick()).toBe(1);
    await h.smtp.waitFor(1);
    const mail = h.smtp.mails.at(-1)!.parsed;
    expect(mail.from?.value[0]).toEqual({ address: 'no-reply@mail.acme.test', name: 'Acme Blinds' });
    expect(mail.replyTo?.value[0]?.address).toBe('office@acme.test');
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value[0]?.address : undefined).toBe('jane@example.com');
    expect(mail.subject).toBe('Reset your Acme Blinds password');
    expect(mail.html).toContain('background:#AA3300');
    expect(mail.html).toContain('href="https://app.acme.test/reset?token=reset-1"');
    expect(mail.text).toContain('https://app.acme.test/reset?token=reset-1');
    expect(mail.headers.get('x-pm-message-id')).toBeTruthy(); // came through Postmark's protocol
    expect(await status(messageId)).toMatchObject({ status: 'sent', provider: 'postmark' });
  });

  it("sends for a tenant without a verified domain from the platform's domain with the tenant's reply-to", async () => {
    const before = h.smtp.mails.length;
    await reset(h.beta, 'sam@example.com', 'reset-beta-1');
    await h.lanes.transactional.tick();
    await h.smtp.waitFor(before + 1);
    const mail = h.smtp.mails.at(-1)!.parsed;
    expect(mail.from?.value[0]).toEqual({ address: 'no-reply@platform.test', name: 'Beta Shades' });
    expect(mail.replyTo?.value[0]?.address).toBe('hello@beta.test');
    expect(mail.subject).toBe('Reset your Beta Shades password');
  });

  it('queues one mail per idempotency key, however often it is requested', async () => {
    const before = h.smtp.mails.length;
    const a = await reset(h.acme, 'once@example.com', 'reset-once');
    const b = await reset(h.acme, 'once@example.com', 'reset-once');
    expect(b).toEqual({ messageId: a.messageId, queued: false });
    await h.lanes.transactional.tick();
    await h.lanes.transactional.tick();
    await h.smtp.waitFor(before + 1);
    await new Promise((r) => setTimeout(r, 100));
    expect(h.smtp.mails.filter((m) => m.envelopeTo.includes('once@example.com'))).toHaveLength(1);
  });

  it('with the primary answering 503, the same mail arrives once through the secondary', async () => {
    h.postmark.failWith('unavailable');
    const before = h.smtp.mails.length;
    const pmBefore = h.postmark.requests;
    const { messageId } = await reset(h.acme, 'failover@example.com', 'reset-failover');
    await h.lanes.transactional.tick();
    await h.smtp.waitFor(before + 1);
    await h.lanes.transactional.tick(); // nothing left to redeliver
    await new Promise((r) => setTimeout(r, 100));
    const got = h.smtp.mails.filter((m) => m.envelopeTo.includes('failover@example.com'));
    expect(got).toHaveLength(1);
    expect(h.postmark.requests).toBe(pmBefore + 1); // Postmark was tried and answered 503
    const mail = got[0]!.parsed;
    expect(mail.headers.get('x-pm-message-id')).toBeUndefined();
    expect(mail.headers.get('x-ses-configuration-set')).toBe('platform-feedback');
    expect(mail.from?.value[0]?.address).toBe('no-reply@mail.acme.test');
    expect(await status(messageId)).toMatchObject({
      status: 'sent',
      provider: 'ses',
      provider_message_id: got[0]!.smtpId,
    });
  });

  it('stops calling a failing primary (circuit open) and probes it back once it recovers', async () => {
    // Postmark is still failing: the circuit opens once half the recent calls failed (at least 2).
    let failures = 0;
    while (h.lanes.services.senders.state === 'closed' && failures < 10) {
      await reset(h.acme, `cb${failures}@example.com`, `cb-${failures}`);
      await h.lanes.transactional.tick();
      failures++;
    }
    expect(h.lanes.services.senders.state).toBe('open');
    const calls = h.postmark.requests;
    await reset(h.acme, 'cb-open@example.com', 'cb-open');
    await h.lanes.transactional.tick();
    expect(h.postmark.requests).toBe(calls); // not called while open; the secondary sent it
    h.postmark.failWith(undefined);
    await new Promise((r) => setTimeout(r, 350)); // reset timeout: half-open
    expect(h.lanes.services.senders.state).toBe('half-open');
    const { messageId } = await reset(h.acme, 'cb-probe@example.com', 'cb-probe');
    await h.lanes.transactional.tick();
    expect(h.postmark.requests).toBe(calls + 1);
    expect(h.lanes.services.senders.state).toBe('closed');
    expect(await status(messageId)).toMatchObject({ status: 'sent', provider: 'postmark' });
  });

  it('never queues transactional mail behind bulk mail', async () => {
    for (let i = 0; i < 25; i++)
      await h.lanes.services.outbox.enqueue({
        tenantId: h.acme,
        template: 'lead_acknowledgement',
        lane: 'bulk',
        to: { address: `bulk${i}@example.com` },
        key: `bulk-${i}`,
        data: { name: 'Reader' },
      });
    const { messageId } = await reset(h.acme, 'urgent@example.com', 'reset-urgent');
    expect(await h.lanes.transactional.tick()).toBe(1); // the bulk backlog is another lane's work
    expect(await status(messageId)).toMatchObject({ status: 'sent' });
    const pending = await h.t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM outbox WHERE topic = 'email.bulk' AND status = 'pending'`,
    );
    expect(pending.rows[0]!.n).toBe(25);
    while ((await h.lanes.bulk.tick()) > 0);
    const sent = await h.t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM email_messages WHERE lane = 'bulk' AND status = 'sent' AND provider = 'ses'`,
    );
    expect(sent.rows[0]!.n).toBe(25); // bulk goes through the secondary (bulk) provider
  });
});

describe('failures', () => {
  it("dead-letters a message the provider rejects, with the provider's reason, without failing over", async () => {
    h.postmark.failWith('invalid');
    const before = h.smtp.mails.length;
    const { messageId } = await reset(h.acme, 'rejected@example.com', 'reset-rejected');
    await h.lanes.transactional.tick();
    h.postmark.failWith(undefined);
    const ob = (
      await h.t.db.query<{ status: string; last_error: string }>(
        'SELECT status, last_error FROM outbox WHERE aggregate_id = $1',
        [messageId],
      )
    ).rows[0]!;
    expect(ob.status).toBe('dead');
    expect(ob.last_error).toMatch(/postmark: HTTP 422 ErrorCode 300/);
    expect(await status(messageId)).toMatchObject({ status: 'failed' });
    expect(h.smtp.mails.length).toBe(before);
  });

  it('when both providers are down the message is retried with backoff, then dead-lettered with the reason', async () => {
    const { composeEmail } = await import('./email.compose.js');
    const { createSmtpSender } = await import('@platform/providers');
    const { OutboxRelay } = await import('@platform/outbox');
    const services = composeEmail(
      h.config,
      h.t.db,
      { info() {}, warn() {} },
      {
        secondary: createSmtpSender({
          name: 'ses',
          url: 'smtp://127.0.0.1:1',
          messageIdDomain: 'platform.test',
          timeoutMs: 1000,
        }),
      },
    );
    const relay = new OutboxRelay({
      db: h.t.db,
      workerId: 'both-down',
      handlers: { 'email.transactional': (row) => services.delivery.deliver(row) },
      logger: { info() {}, warn() {}, error() {} },
      maxAttempts: 2,
      baseDelayMs: 10,
      maxDelayMs: 10,
    });
    h.postmark.failWith('unavailable');
    const { messageId } = await services.outbox.enqueue({
      tenantId: h.acme,
      template: 'password_reset',
      to: { address: 'down@example.com' },
      key: 'both-down',
      data: { resetUrl: 'https://app.acme.test/r' },
    });
    const outbox = async () =>
      (
        await h.t.db.query<{ status: string; attempts: number; last_error: string }>(
          'SELECT status, attempts, last_error FROM outbox WHERE aggregate_id = $1',
          [messageId],
        )
      ).rows[0]!;
    await relay.tick();
    expect(await outbox()).toMatchObject({ status: 'pending', attempts: 1 });
    expect((await outbox()).last_error).toMatch(/ses: .*ECONNREFUSED|ses: .*ESOCKET|ses: .*connect/i);
    await new Promise((r) => setTimeout(r, 50));
    await relay.tick();
    expect(await outbox()).toMatchObject({ status: 'dead', attempts: 2 });
    expect(await status(messageId)).toMatchObject({ status: 'queued' });
    h.postmark.failWith(undefined);
    await services.close();
  });
});
