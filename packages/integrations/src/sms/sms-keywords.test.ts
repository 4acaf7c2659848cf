/**
 * SMS keywords against the local JustCall-style provider: STOP opts the number out of that tenant's
 * texts with one confirmation and every later text to it is refused as "opted out"; START brings it
 * back; HELP answers with the company's name and contact; another tenant still texts the number.
 */
import { createJustCallSmsSender } from '@platform/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { smsConfigSchema, smsLineSchema } from '../settings/settings.schemas.js';
import { SMS_API, type SmsHarness, startSmsHarness, WEBHOOK_SECRET } from './sms.test-harness.js';
import { smsKeyword } from './sms-keywords.js';

let h: SmsHarness;
let other: string;
beforeAll(async () => {
  h = await startSmsHarness();
  await h.rows(
    `INSERT INTO tenant_settings (tenant_id, company_name, phone, email) VALUES ($1, 'Acme Blinds', '(303) 555-0100', 'hi@acme.test')`,
    [h.tenant],
  );
  other = (await h.rows(`INSERT INTO tenants (slug, name) VALUES ('b', 'B') RETURNING id`))[0]!.id;
  await h.settings.setSmsConfig(
    other,
    smsConfigSchema.parse({ ...SMS_API, webhook_base_url: 'http://127.0.0.1:9', webhook_secret: WEBHOOK_SECRET }),
  );
  await h.settings.addSmsLine(
    other,
    smsLineSchema.parse({ name: 'B', phone_number: '+1 303 555 0142', line_type: 'sales' }),
  );
}, 180_000);
afterAll(async () => h?.close());

const CUSTOMER = '17205550150';
const sender = (s: { apiKey: string; apiSecret: string }) => createJustCallSmsSender({ ...s, baseUrl: h.provider.url });
const textIn = (body: string) => h.provider.simulateInbound({ from: CUSTOMER, to: '13035550100', body });
/** Delivers every queued text of the tenant (the worker's job) and returns what reached the customer. */
async function deliverQueued(tenant = h.tenant): Promise<string[]> {
  const before = h.provider.messages.length;
  const queued = await h.rows(
    `SELECT id FROM sms_messages WHERE tenant_id = $1 AND direction = 'outbound' AND status = 'queued' ORDER BY created_at`,
    [tenant],
  );
  for (const q of queued) await h.sms.deliver(tenant, q.id, sender);
  return h.provider.messages
    .slice(before)
    .filter((m) => m.contact === CUSTOMER)
    .map((m) => m.body);
}

describe('SMS keywords', () => {
  it('reads only a whole message as a keyword, in any case', () => {
    expect(smsKeyword('  stop ')).toEqual({ kind: 'stop', word: 'STOP' });
    expect(smsKeyword('Quit')).toEqual({ kind: 'stop', word: 'QUIT' });
    expect(smsKeyword('unstop')).toEqual({ kind: 'start', word: 'UNSTOP' });
    expect(smsKeyword('help')).toEqual({ kind: 'help', word: 'HELP' });
    expect(smsKeyword('please stop by at 3')).toBeUndefined();
    expect(smsKeyword('END.')).toBeUndefined();
  });

  it('STOP: one confirmation, then every text to the number is refused as opted out', async () => {
    await textIn('Stop');
    expect(await deliverQueued()).toEqual([
      'Acme Blinds: you are unsubscribed and will get no more texts from us. Reply START to resubscribe.',
    ]);
    const q = await h.sms.queue(h.tenant, { to: CUSTOMER, body: 'Your fitter comes at 9.' });
    expect(await h.sms.deliver(h.tenant, q.id, sender)).toEqual({ providerMessageId: null, status: 'refused' });
    expect(await deliverQueued()).toEqual([]);
    expect(await h.sms.messageStatus(h.tenant, q.id)).toMatchObject({
      status: 'refused',
      refused_reason: 'opted out',
      accepted: false,
    });
  });

  it('another tenant still texts a number that opted out of this one', async () => {
    const q = await h.sms.queue(other, { to: CUSTOMER, body: 'From B.' });
    await h.sms.deliver(other, q.id, sender);
    expect(h.provider.messages.at(-1)).toMatchObject({ contact: CUSTOMER, body: 'From B.' });
    expect(await h.rows('SELECT tenant_id FROM sms_opt_outs')).toEqual([{ tenant_id: h.tenant }]);
  });

  it('HELP answers with the company name and contact, even to an opted-out number', async () => {
    await textIn('HELP');
    expect(await deliverQueued()).toEqual([
      'Acme Blinds: for help call (303) 555-0100 or email hi@acme.test. Reply STOP to unsubscribe.',
    ]);
  });

  it('START opts back in with a reply, and texts reach the number again', async () => {
    await textIn('start');
    expect(await deliverQueued()).toEqual([
      'Acme Blinds: you are subscribed to our texts again. Reply STOP to unsubscribe, HELP for help.',
    ]);
    await h.sms.queue(h.tenant, { to: CUSTOMER, body: 'Your fitter comes at 10.' });
    expect(await deliverQueued()).toEqual(['Your fitter comes at 10.']);
  });

  it('a redelivered STOP webhook replies once', async () => {
    await textIn('STOP');
    await h.provider.resendWebhook();
    expect(await deliverQueued()).toHaveLength(1);
  });
});
