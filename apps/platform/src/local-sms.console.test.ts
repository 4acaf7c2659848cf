/**
 * The local console's SMS page driven over HTTP as a person would: a customer's phone texts STOP
 * to the tenant's line through the form, gets one confirmation, and a later text to them is refused
 * as "opted out"; START brings texts back; HELP is answered with the company's contact.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { type SmsHarness, startSmsHarness } from '@platform/integrations/sms/sms.test-harness.js';
import { createJustCallSmsSender } from '@platform/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { serveConsole } from './local-providers.console.js';

let h: SmsHarness;
let console_: Server;
let base: string;
beforeAll(async () => {
  h = await startSmsHarness();
  await h.rows(
    `INSERT INTO tenant_settings (tenant_id, company_name, phone, email) VALUES ($1, 'Acme Blinds', '303-555-0100', 'office@acme.test')`,
    [h.tenant],
  );
  console_ = createServer((req, res) => void serveConsole(req, res, { sms: h.provider }));
  await new Promise<void>((r) => console_.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(console_.address() as AddressInfo).port}`;
}, 180_000);
afterAll(async () => {
  await new Promise<void>((r) => console_?.close(() => r()));
  await h?.close();
});

const PHONE = '17205550190';
const sender = (s: { apiKey: string; apiSecret: string }) => createJustCallSmsSender({ ...s, baseUrl: h.provider.url });
/** The person presses "Send text" on the console's form; the browser follows the 303 to the phone page. */
const textFromForm = (body: string) =>
  fetch(`${base}/sms/inbound`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ from: PHONE, to: '13035550100', body }).toString(),
    redirect: 'manual',
  });
/** The worker's sms.send jobs: every queued text of the tenant is delivered (or refused). */
async function deliverQueued(): Promise<void> {
  const queued = await h.rows(`SELECT id FROM sms_messages WHERE direction = 'outbound' AND status = 'queued'`);
  for (const q of queued) await h.sms.deliver(h.tenant, q.id, sender);
}
const phonePage = async () => (await fetch(`${base}/sms?from=${PHONE}`)).text();
const toPhone = () =>
  h.provider.messages.filter((m) => m.direction === 'Outgoing' && m.contact === PHONE).map((m) => m.body);

describe("the SMS stand-in's console", () => {
  it('shows a form that texts one of our lines', async () => {
    const html = await phonePage();
    expect(html).toContain('<form method="post" action="/sms/inbound">');
    expect(html).toContain(`value="${PHONE}"`);
  });

  it('STOP from the form: one confirmation, then texts to that number are refused as opted out', async () => {
    const r = await textFromForm('STOP');
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe(`/sms?from=${PHONE}`);
    await deliverQueued();
    const confirmation =
      'Acme Blinds: you are unsubscribed and will get no more texts from us. Reply START to resubscribe.';
    expect(toPhone()).toEqual([confirmation]);
    expect(await phonePage()).toContain(confirmation);
    const q = await h.sms.queue(h.tenant, { to: PHONE, body: 'Your fitter is on the way.' });
    await deliverQueued();
    expect(toPhone()).toEqual([confirmation]);
    expect(await h.sms.messageStatus(h.tenant, q.id)).toMatchObject({ status: 'refused', refused_reason: 'opted out' });
  });

  it('HELP is answered; START (as JSON from a script) brings texts back', async () => {
    await textFromForm('help');
    await deliverQueued();
    expect(toPhone().at(-1)).toBe(
      'Acme Blinds: for help call 303-555-0100 or email office@acme.test. Reply STOP to unsubscribe.',
    );
    const r = await fetch(`${base}/sms/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ from: PHONE, to: '13035550100', body: 'Start' }),
    });
    expect(r.status).toBe(202);
    await deliverQueued();
    expect(toPhone().at(-1)).toContain('you are subscribed to our texts again');
    await h.sms.queue(h.tenant, { to: PHONE, body: 'Your fitter is on the way.' });
    await deliverQueued();
    expect(toPhone().at(-1)).toBe('Your fitter is on the way.');
  });

  it('refuses a form without a text, and a post from another origin', async () => {
    expect((await textFromForm(' ')).status).toBe(422);
    const before = h.provider.messages.length;
    const r = await fetch(`${base}/sms/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      body: new URLSearchParams({ from: PHONE, to: '13035550100', body: 'STOP' }).toString(),
    });
    expect(r.status).toBe(403);
    expect(h.provider.messages.length).toBe(before);
  });
});
