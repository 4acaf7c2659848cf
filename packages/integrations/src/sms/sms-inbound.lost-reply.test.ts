/**
 * A retried inbound-SMS job after a lost reply: the ERP committed the write (lead, its external-id
 * link, the chatter message) but the worker saw a failure. The retry finds what the first attempt
 * did, so each text ends as one lead (at most) and one chatter message.
 */
import { createOdooErp, type Erp } from '@platform/erp';
import { odooCall, type ReplyDroppingProxy, startReplyDroppingProxy } from '@platform/erp-embedded/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type SmsHarness, startSmsHarness } from './sms.test-harness.js';
import { SMS_XMLID_MODULE, smsMarker } from './sms-chatter.js';

let h: SmsHarness;
let proxy: ReplyDroppingProxy;
let viaProxy: Erp;
beforeAll(async () => {
  h = await startSmsHarness();
  proxy = await startReplyDroppingProxy(h.erp.url);
  viaProxy = createOdooErp({
    url: proxy.url,
    db: h.erp.dbName,
    login: 'admin',
    secret: h.erp.apiKey,
    timeoutMs: 20_000,
  });
}, 180_000);
afterAll(async () => {
  await proxy?.close();
  await h?.close();
});

/** A text from `from` received through the webhook; returns its platform id. */
const inbound = async (from: string, body: string): Promise<string> => {
  const { providerMessageId } = await h.provider.simulateInbound({ from, to: '13035550100', body });
  return (await h.rows('SELECT id FROM sms_messages WHERE provider_message_id = $1', [providerMessageId]))[0]!
    .id as string;
};
const leadsFor = (smsId: string) =>
  h.erp.erp.search('crm.lead', [['description', 'ilike', smsMarker(smsId)]], { context: { active_test: false } });
const posted = (smsId: string) =>
  h.erp.erp.searchRead('mail.message', [['message_id', '=', `<sms-${smsId}@platform>`]], {
    fields: ['model', 'res_id'],
  });
/** The first attempt fails after the ERP committed; the retry (the outbox's next attempt) succeeds. */
const attemptTwice = async (smsId: string) => {
  await expect(h.sms.attachInbound(smsId, viaProxy)).rejects.toMatchObject({ code: 'ERP_UNAVAILABLE' });
  expect(proxy.dropped.at(-1)?.upstreamStatus).toBe(200);
  return h.sms.attachInbound(smsId, viaProxy);
};

describe('a retried inbound SMS whose ERP reply was lost', { timeout: 60_000 }, () => {
  it('lead created, reply lost: one lead, linked once, one chatter message', async () => {
    const id = await inbound('17205550401', 'Do you do plantation shutters?');
    proxy.dropNext(odooCall('crm.lead', 'create'));
    const r = await attemptTwice(id);
    expect(await leadsFor(id)).toEqual([r.id]);
    expect(
      await h.erp.erp.searchCount('ir.model.data', [
        ['module', '=', SMS_XMLID_MODULE],
        ['res_id', '=', r.id],
      ]),
    ).toBe(1);
    expect(await posted(id)).toEqual([{ id: r.messageId, model: 'crm.lead', res_id: r.id }]);
  });

  it('external-id link created, reply lost: one lead, one link', async () => {
    const id = await inbound('17205550402', 'Quote for vertical blinds');
    proxy.dropNext(odooCall('ir.model.data', 'create'));
    const r = await attemptTwice(id);
    expect(await leadsFor(id)).toEqual([r.id]);
    expect(
      await h.erp.erp.searchCount('ir.model.data', [
        ['module', '=', SMS_XMLID_MODULE],
        ['res_id', '=', r.id],
      ]),
    ).toBe(1);
  });

  it('chatter message posted, reply lost: one message on the partner', async () => {
    const partner = await h.erp.erp.create('res.partner', { name: 'Lou Known', mobile: '+1 720 555 0403' });
    const id = await inbound('17205550403', 'Running 10 minutes late');
    proxy.dropNext(odooCall('res.partner', 'message_post'));
    const r = await attemptTwice(id);
    expect(r).toMatchObject({ model: 'res.partner', id: partner });
    expect(await posted(id)).toEqual([{ id: r.messageId, model: 'res.partner', res_id: partner }]);
    expect(await leadsFor(id)).toEqual([]);
  });
});
