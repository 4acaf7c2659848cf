/**
 * Bounce and complaint webhooks feeding the shared suppression list: a signed SES (SNS) bounce
 * suppresses the address and the next send is skipped and recorded; Postmark webhooks need their
 * basic auth; forged, re-topiced or foreign-certificate messages change nothing.
 */
import { postmarkBounceBody } from '@platform/providers/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type EmailHarness, HOOK_PASSWORD, HOOK_USER, startEmailHarness } from './test-support/email-harness.js';

let h: EmailHarness;
beforeAll(async () => {
  h = await startEmailHarness();
});
afterAll(async () => h?.close());

const send = async (tenantId: string, to: string, key: string) => {
  const r = await h.lanes.services.outbox.enqueue({
    tenantId,
    template: 'portal_quote_link',
    to: { address: to },
    key,
    data: { customerName: 'Jane', quoteNumber: 'S042', portalUrl: 'https://portal.acme.test/q/1' },
  });
  await h.lanes.transactional.tick();
  return r.messageId;
};
const row = async (id: string) =>
  (
    await h.t.db.query<{ status: string; provider: string; provider_message_id: string; last_error: string | null }>(
      'SELECT * FROM email_messages WHERE id = $1',
      [id],
    )
  ).rows[0]!;
const suppressions = async () =>
  (await h.t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM email_suppressions')).rows[0]!.n;
const postSes = (envelope: unknown, type = 'Notification') =>
  h.app.inject({
    method: 'POST',
    url: '/email/webhook/ses',
    headers: { 'content-type': 'text/plain; charset=UTF-8', 'x-amz-sns-message-type': type },
    payload: JSON.stringify(envelope),
  });
const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;
const postPostmark = (body: unknown, auth?: string) =>
  h.app.inject({
    method: 'POST',
    url: '/email/webhook/postmark',
    headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
    payload: JSON.stringify(body),
  });

describe('SES through SNS', () => {
  it('after a signed bounce webhook the address is suppressed and the next send is skipped and recorded', async () => {
    h.postmark.failWith('unavailable'); // so the mail goes out through SES and carries an SES id
    const first = await send(h.acme, 'gone@example.com', 'q-1');
    h.postmark.failWith(undefined);
    const sent = await row(first);
    expect(sent).toMatchObject({ status: 'sent', provider: 'ses' });
    const res = await postSes(h.sns.sesBounce({ email: 'gone@example.com', sesMessageId: sent.provider_message_id }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ received: 1, suppressed: 1 });
    const mails = h.smtp.mails.length;
    const second = await send(h.acme, 'Gone@Example.com', 'q-2');
    expect(await row(second)).toMatchObject({ status: 'suppressed' });
    expect((await row(second)).last_error).toMatch(/hard_bounce .*this tenant.* reported by ses/);
    const outbox = await h.t.db.query<{ status: string }>(`SELECT status FROM outbox WHERE aggregate_id = $1`, [
      second,
    ]);
    expect(outbox.rows[0]?.status).toBe('done');
    await new Promise((r) => setTimeout(r, 100));
    expect(h.smtp.mails.length).toBe(mails);
    // A bounce is per tenant: Beta may still write to the address.
    expect(await row(await send(h.beta, 'gone@example.com', 'q-beta'))).toMatchObject({ status: 'sent' });
  });

  it('a forged, re-topiced or foreign-certificate message changes nothing', async () => {
    const before = await suppressions();
    const good = h.sns.sesComplaint({ email: 'victim@example.com', sesMessageId: 'x', tenantId: h.acme });
    const forged = { ...good, Message: good.Message.replace('victim@example.com', 'other@example.com') };
    const retopic = { ...good, TopicArn: 'arn:aws:sns:us-east-1:999999999999:not-ours' };
    const foreignCert = { ...good, SigningCertURL: 'https://attacker.example.com/cert.pem' };
    const unsigned = { ...good, Signature: '' };
    for (const e of [forged, retopic, foreignCert, unsigned]) {
      const res = await postSes(e);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'EMAIL_WEBHOOK_UNAUTHENTICATED' });
    }
    expect((await postSes('not json')).statusCode).toBe(401);
    expect(await suppressions()).toBe(before);
    // The untouched message is accepted: a complaint suppresses the address platform-wide.
    expect((await postSes(good)).json()).toMatchObject({ suppressed: 1 });
    const beta = await send(h.beta, 'victim@example.com', 'q-victim');
    expect((await row(beta)).last_error).toMatch(/complaint .*platform-wide/);
  });

  it('confirms a signed subscription by GETting its SubscribeURL', async () => {
    const res = await postSes(h.sns.subscriptionConfirmation(), 'SubscriptionConfirmation');
    expect(res.statusCode).toBe(200);
    expect(h.sns.confirmedTokens).toHaveLength(1);
  });
});

describe('Postmark', () => {
  it('refuses a webhook without the configured basic auth, and applies one with it', async () => {
    const body = postmarkBounceBody({
      email: 'pm-bounce@example.com',
      messageId: 'unknown',
      type: 'HardBounce',
      tenantId: h.acme,
    });
    const before = await suppressions();
    expect((await postPostmark(body)).statusCode).toBe(401);
    expect((await postPostmark(body, basic(HOOK_USER, 'wrong-password-0123456789'))).statusCode).toBe(401);
    expect(await suppressions()).toBe(before);
    const ok = await postPostmark(body, basic(HOOK_USER, HOOK_PASSWORD));
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ suppressed: 1 });
    expect((await postPostmark({ nothing: true }, basic(HOOK_USER, HOOK_PASSWORD))).statusCode).toBe(400);
  });

  it('finds the tenant from the message Postmark names, and ignores soft bounces', async () => {
    const id = await send(h.beta, 'soft@example.com', 'pm-soft');
    const pmId = (await row(id)).provider_message_id;
    const soft = await postPostmark(
      postmarkBounceBody({ email: 'soft@example.com', messageId: pmId, type: 'SoftBounce' }),
      basic(HOOK_USER, HOOK_PASSWORD),
    );
    expect(soft.json()).toMatchObject({ received: 1, suppressed: 0 });
    const hard = await postPostmark(
      postmarkBounceBody({ email: 'soft@example.com', messageId: pmId, type: 'HardBounce' }),
      basic(HOOK_USER, HOOK_PASSWORD),
    );
    expect(hard.json()).toMatchObject({ suppressed: 1 });
    expect((await h.lanes.services.suppressions.check(h.beta, 'soft@example.com'))?.tenant_id).toBe(h.beta);
    expect(await h.lanes.services.suppressions.check(h.acme, 'soft@example.com')).toBeUndefined();
  });
});

describe('office user', () => {
  it('sees why an address is suppressed and can lift a bounce but not a complaint', async () => {
    const s = h.lanes.services.suppressions;
    await postPostmark(
      postmarkBounceBody({ email: 'lift@example.com', messageId: 'm-lift', type: 'HardBounce', tenantId: h.acme }),
      basic(HOOK_USER, HOOK_PASSWORD),
    );
    await postPostmark(
      postmarkBounceBody({ email: 'spam@example.com', messageId: 'm-spam', type: 'SpamComplaint', tenantId: h.acme }),
      basic(HOOK_USER, HOOK_PASSWORD),
    );
    const listed = await s.list(h.acme, { email: 'lift@example.com' });
    expect(listed[0]).toMatchObject({ reason: 'hard_bounce', provider: 'postmark', scope: 'tenant' });
    await expect(s.lift(h.acme, 'spam@example.com', 'office')).rejects.toMatchObject({
      code: 'EMAIL_SUPPRESSION_NOT_LIFTABLE',
    });
    await s.lift(h.acme, 'lift@example.com', 'office');
    expect(await s.check(h.acme, 'lift@example.com')).toBeUndefined();
    expect(await row(await send(h.acme, 'lift@example.com', 'after-lift'))).toMatchObject({ status: 'sent' });
    expect(await s.check(h.beta, 'spam@example.com')).toMatchObject({ reason: 'complaint', scope: 'platform' });
  });
});
