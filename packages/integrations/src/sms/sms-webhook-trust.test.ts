/**
 * A webhook is a notice, not a fact: the SMS provider signs only secret|url|type|timestamp, so a
 * captured signature replayed with other bodies must create nothing, a notice whose message the
 * provider does not have is refused, and secrets rotate with an overlap.
 */
import { createJustCallSmsSender } from '@platform/providers';
import { formatJustCallTimestamp, signJustCall } from '@platform/providers/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { smsConfigSchema } from '../settings/settings.schemas.js';
import { SMS_API, type SmsHarness, startSmsHarness, WEBHOOK_SECRET } from './sms.test-harness.js';

let h: SmsHarness;
beforeAll(async () => {
  h = await startSmsHarness();
}, 180_000);
afterAll(async () => h?.close());

const counts = async () => ({
  messages: (await h.rows('SELECT count(*)::int AS n FROM sms_messages'))[0]!.n as number,
  jobs: (await h.rows(`SELECT count(*)::int AS n FROM outbox WHERE topic = 'sms.inbound'`))[0]!.n as number,
});
/** Posts a captured webhook again with the same signed headers and a body changed by `edit`. */
const replay = async (w: { headers: Record<string, string>; body: string }, edit: (b: any) => void) => {
  const body = JSON.parse(w.body);
  edit(body);
  const res = await fetch(h.hookUrl, { method: 'POST', headers: w.headers, body: JSON.stringify(body) });
  return { status: res.status, outcome: h.outcomes.at(-1) };
};

describe('a captured SMS webhook signature', () => {
  it('replayed within 5 minutes with 21 tampered bodies creates nothing', async () => {
    const { providerMessageId } = await h.provider.simulateInbound({
      from: '17205550177',
      to: '13035550100',
      body: 'Genuine text',
    });
    const captured = h.provider.webhooks.at(-1)!;
    const outbound = h.provider.messages.length; // an id the provider has, but not an inbound text
    await h.sms
      .queue(h.tenant, { to: '7205550123', body: 'Our reply' })
      .then((q) => h.sms.deliver(h.tenant, q.id, (s) => createSender(s)));
    await h.provider.flushWebhooks();
    const before = await counts();
    const results = [];
    for (let i = 0; i < 21; i++) {
      results.push(
        await replay(captured, (b) => {
          b.request_id = `01FORGED${String(i).padStart(4, '0')}`;
          b.data.sms_info.body = `Forged text ${i}: call 555-0000 now`;
          b.data.contact_number = `1720555${String(1000 + i)}`;
          // Thirteen point at messages the provider never had, four at the genuine one, four at our outbound text.
          b.data.id = i < 13 ? 900_000 + i : i < 17 ? Number(providerMessageId) : 100_000 + outbound + 1;
        }),
      );
    }
    expect(await counts()).toEqual(before);
    expect(
      results.filter((r) => r.status === 400 && r.outcome?.['reason' as never] === 'unknown_message'),
    ).toHaveLength(13);
    expect(
      results.filter((r) => r.status === 200 && (r.outcome as { handled?: string }).handled === 'duplicate'),
    ).toHaveLength(4);
    expect(
      results.filter((r) => r.status === 400 && r.outcome?.['reason' as never] === 'message_mismatch'),
    ).toHaveLength(4);
    // What we keep is what the provider has: the genuine text, once.
    expect(
      await h.rows('SELECT body, contact_number FROM sms_messages WHERE provider_message_id = $1', [providerMessageId]),
    ).toEqual([{ body: 'Genuine text', contact_number: '17205550177' }]);
  });

  it('a notice whose message the provider does not have is refused (signed with the real secret)', async () => {
    const before = await counts();
    const timestamp = formatJustCallTimestamp(h.provider.now());
    const res = await fetch(h.hookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-justcall-signature-version': 'v1',
        'x-justcall-request-timestamp': timestamp,
        'x-justcall-signature': signJustCall({
          secret: WEBHOOK_SECRET,
          webhookUrl: h.hookUrl,
          type: 'sms.received',
          timestamp,
        }),
      },
      body: JSON.stringify({
        request_id: '01NOSUCHTEXT',
        type: 'sms.received',
        data: {
          id: 777_777,
          direction: 'Incoming',
          contact_number: '17205550178',
          justcall_number: '13035550100',
          sms_info: { body: 'Never sent' },
        },
      }),
    });
    expect(res.status).toBe(400);
    expect(h.outcomes.at(-1)).toEqual({ status: 400, reason: 'unknown_message' });
    expect(await counts()).toEqual(before);
  });

  it('a status notice stores the status the provider has, not the one in the body', async () => {
    const q = await h.sms.queue(h.tenant, { to: '7205550124', body: 'Status check' });
    const sent = await h.sms.deliver(h.tenant, q.id, (s) => createSender(s));
    await h.provider.flushWebhooks();
    const delivered = h.provider.webhooks.filter((w) => w.type === 'sms.delivered').at(-1)!;
    await replay(delivered, (b) => {
      b.request_id = '01FORGEDSTATUS';
      b.data.delivery_status = 'undelivered';
    });
    expect(
      (await h.rows('SELECT status FROM sms_messages WHERE provider_message_id = $1', [sent.providerMessageId]))[0],
    ).toEqual({ status: 'delivered' });
  });
});

describe('webhook secret rotation', () => {
  it('accepts the previous secret during the overlap, and only the new one once it ends', async () => {
    const shown = await h.configure({ webhook_secret: 'whsec-rotated-secret-000001', rotation_overlap_hours: 24 });
    expect(shown.previous_webhook_secret_expires_at).toBeInstanceOf(Date);
    expect(JSON.stringify(shown)).not.toContain(WEBHOOK_SECRET);
    // The provider still signs with the old secret for a while: accepted.
    await h.provider.simulateInbound({ from: '17205550300', to: '13035550100', body: 'old secret' });
    expect(h.outcomes.at(-1)).toEqual({ status: 200, handled: 'received' });
    h.provider.setWebhookSecret('whsec-rotated-secret-000001');
    await h.provider.simulateInbound({ from: '17205550301', to: '13035550100', body: 'new secret' });
    expect(h.outcomes.at(-1)).toEqual({ status: 200, handled: 'received' });
    // The overlap ends: the old secret is refused.
    await h.t.db.query(
      `UPDATE sms_configs SET previous_webhook_secret_expires_at = now() - interval '1 second' WHERE tenant_id = $1`,
      [h.tenant],
    );
    h.provider.setWebhookSecret(WEBHOOK_SECRET);
    await h.provider.simulateInbound({ from: '17205550302', to: '13035550100', body: 'expired secret' });
    expect(h.outcomes.at(-1)).toEqual({ status: 401, reason: 'bad_signature' });
    // A rotation without overlap refuses the replaced secret at once.
    await h.configure({ webhook_secret: 'whsec-rotated-secret-000002', rotation_overlap_hours: 0 });
    h.provider.setWebhookSecret('whsec-rotated-secret-000001');
    await h.provider.simulateInbound({ from: '17205550303', to: '13035550100', body: 'replaced secret' });
    expect(h.outcomes.at(-1)).toEqual({ status: 401, reason: 'bad_signature' });
    expect(
      (await h.rows(`SELECT body FROM sms_messages WHERE contact_number LIKE '1720555030%' ORDER BY body`)).map(
        (r) => r.body,
      ),
    ).toEqual(['new secret', 'old secret']);
  });

  it('refuses an overlap outside 0-168 hours, naming the field', () => {
    const r = smsConfigSchema.safeParse({
      ...SMS_API,
      webhook_base_url: 'https://erp.example.com',
      webhook_secret: 'whsec-rotated-secret-000003',
      rotation_overlap_hours: 500,
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues).toEqual([
      expect.objectContaining({ path: ['rotation_overlap_hours'], message: 'must be 0 to 168 hours' }),
    ]);
  });
});

const createSender = (s: { apiKey: string; apiSecret: string }) =>
  createJustCallSmsSender({ ...s, baseUrl: h.provider.url });
