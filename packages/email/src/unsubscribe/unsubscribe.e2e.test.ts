/**
 * One-click unsubscribe (RFC 8058) end to end: a reminder goes out (through the Postmark stand-in and
 * SMTP) with an unsubscribe link and the List-Unsubscribe headers; a receipt does not. A POST to the
 * link with no login answers 200 and suppresses the address for that tenant's reminders only: its
 * receipts still go, and another tenant's reminders too. The GET only shows a button.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { sampleData } from '../templates/render.js';
import { type EmailHarness, startEmailHarness } from '../test-support/email-harness.js';
import type { EmailCategory } from './unsubscribe.js';
import { registerEmailUnsubscribe } from './unsubscribe.plugin.js';

let h: EmailHarness;
let app: FastifyInstance;
beforeAll(async () => {
  h = await startEmailHarness({ EMAIL_UNSUBSCRIBE_BASE_URL: 'https://erp.platform.test' });
  app = Fastify({ logger: false });
  registerEmailUnsubscribe(app, h.t.db);
  await app.ready();
}, 120_000);
afterAll(async () => {
  await app?.close();
  await h?.close();
});

/** Sends one job_scheduled mail and returns its status and, when sent, the mail as received. */
async function send(tenantId: string, to: string, key: string, category?: EmailCategory) {
  const before = h.smtp.mails.length;
  const r = await h.lanes.services.outbox.enqueue({
    tenantId,
    template: 'job_scheduled',
    to: { address: to },
    key,
    data: sampleData('job_scheduled'),
    ...(category ? { category } : {}),
  });
  await h.lanes.transactional.tick();
  const row = (await h.t.db.query<{ status: string }>('SELECT status FROM email_messages WHERE id = $1', [r.messageId]))
    .rows[0]!;
  if (row.status !== 'sent') return { status: row.status };
  await h.smtp.waitFor(before + 1);
  const mail = h.smtp.mails.at(-1)!.parsed;
  const header = (name: string) => mail.headerLines.find((l) => l.key === name)?.line.replace(/^[^:]+:\s*/, '');
  return {
    status: row.status,
    text: mail.text ?? '',
    html: String(mail.html),
    listUnsubscribe: header('list-unsubscribe'),
    listUnsubscribePost: header('list-unsubscribe-post'),
  };
}
const linkOf = (text: string) => /https:\/\/erp\.platform\.test(\/email\/unsubscribe\/[A-Za-z0-9_-]+)/.exec(text)?.[1];

describe('one-click unsubscribe', () => {
  let path: string;

  it('a reminder carries the link and both RFC 8058 headers; a transactional mail carries neither', async () => {
    const reminder = await send(h.acme, 'pat@example.com', 'rem-1', 'reminder');
    path = linkOf(reminder.text!)!;
    expect(path).toBeDefined();
    expect(reminder.listUnsubscribe).toBe(`<https://erp.platform.test${path}>`);
    expect(reminder.listUnsubscribePost).toBe('List-Unsubscribe=One-Click');
    expect(reminder.html).toContain(`https://erp.platform.test${path}`);
    const receipt = await send(h.acme, 'pat@example.com', 'receipt-1');
    expect(receipt).toMatchObject({ status: 'sent', listUnsubscribe: undefined, listUnsubscribePost: undefined });
    expect(linkOf(receipt.text!)).toBeUndefined();
  });

  it('the GET shows a button and unsubscribes nobody', async () => {
    const page = await app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<form method="post">');
    expect((await send(h.acme, 'pat@example.com', 'rem-2', 'reminder')).status).toBe('sent');
  });

  it('the one-click POST answers 200 without login and stops that tenant’s reminders, not its receipts', async () => {
    const res = await app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(res.statusCode).toBe(200);
    expect((await send(h.acme, 'pat@example.com', 'rem-3', 'follow_up')).status).toBe('suppressed');
    expect((await send(h.acme, 'pat@example.com', 'receipt-2')).status).toBe('sent');
    expect((await send(h.beta, 'pat@example.com', 'beta-rem', 'reminder')).status).toBe('sent');
    const rows = await h.t.db.query('SELECT tenant_id, reason, scope FROM email_suppressions');
    expect(rows.rows).toEqual([{ tenant_id: h.acme, reason: 'unsubscribed', scope: 'tenant' }]);
  });

  it('an unknown token answers 404 and changes nothing', async () => {
    const res = await app.inject({ method: 'POST', url: '/email/unsubscribe/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    expect(res.statusCode).toBe(404);
    expect((await h.t.db.query('SELECT 1 FROM email_suppressions')).rows).toHaveLength(1);
  });

  it('a hard bounce replaces the unsubscribe, so receipts stop too', async () => {
    await h.lanes.services.suppressions.applyFeedback(h.acme, {
      kind: 'hard_bounce',
      email: 'pat@example.com',
      provider: 'postmark',
      eventId: 'b-1',
      providerMessageId: undefined,
      tenantHint: h.acme,
      inactive: false,
      detail: {},
    });
    expect((await send(h.acme, 'pat@example.com', 'receipt-3')).status).toBe('suppressed');
  });
});
