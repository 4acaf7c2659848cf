/**
 * Issue 29's "On my way" must-show against the real platform with `npm start`'s own stand-ins
 * (localProviders): a technician at 375 px taps On my way with 20 minutes; the customer's phone (the
 * SMS stand-in, read from its console) gets a text with the company's name and the estimate; the
 * office's customer page lists it under Automatic messages, where the customer's preferred channel is
 * set (axe 0 at 1280 and 375 px, screenshots).
 * The company's zone is one where it is midday now, so quiet hours never hold the text.
 */
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { waitUntil } from '../support/real-platform.js';
import { axe, DESKTOP, PHONE_375 } from './chromium.js';
import { signInToField, signInToOffice } from './office-session.js';
import { bothWidthsChecker, SHOTS, useRealPlatform } from './real-session.js';

const s = useRealPlatform({ localProviders: true });
const checkBothWidths = bothWidthsChecker('messages');

const received = async (): Promise<{ sms: { contact: string; line: string; body: string }[] }> =>
  (await fetch(`${s.p.localConsole}/`)).json();

/** Midday now (Etc/GMT-N is UTC+N), as messages.test-support.ts's: apps do not import each other's tests. */
const middayZone = (n = (((12 - new Date().getUTCHours()) % 24) + 24) % 24) =>
  n === 0 ? 'Etc/GMT' : n > 12 ? `Etc/GMT+${24 - n}` : `Etc/GMT-${n}`;

describe('On my way', () => {
  it('texts the customer the company and the estimate the technician picked, and the office sees it', async () => {
    const { a } = s.p;
    await waitUntil('the SMS stand-in wired to A', async () => {
      const r = await s.p.api(a.owner.token, 'GET', `/api/tenants/${a.id}/integrations`);
      return r.body.sms.lines.length ? true : undefined;
    });
    const zone = await s.p.api(a.owner.token, 'PUT', `/api/tenants/${a.id}/settings`, { time_zone: middayZone() });
    expect(zone.status, JSON.stringify(zone.body)).toBe(200);
    const start = new Date(Date.now() + 3_600_000);
    const job = await s.p.api(a.office.token, 'POST', '/jobs', {
      customer: { name: 'Rosa Waiting', phone: '+1 303 555 0188', email: 'rosa@example.com' },
      address: { street: '1420 Larimer St', city: 'Denver', zip: '80202', state: 'CO' },
      scheduled_start: start.toISOString(),
      scheduled_end: new Date(start.getTime() + 7_200_000).toISOString(),
      technician_id: a.technician.id,
    });
    expect(job.status, JSON.stringify(job.body)).toBe(201);

    const ctx = await s.browser.newContext(PHONE_375);
    const page = await signInToField(s, ctx, a);
    await page.click('text=Rosa Waiting');
    await page.waitForSelector('h1:has-text("Rosa Waiting")');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'messages-on-my-way-375.png'), fullPage: true });
    await page.click('button[data-eta="20"]');

    const text = await waitUntil('the on-my-way text at the stand-in', async () =>
      (await received()).sms.find((m) => m.contact === '13035550188' && m.body.includes('on the way')),
    );
    expect(text.body).toBe('Acme Blinds: Terry is on the way and should arrive in about 20 minutes.');
    await ctx.close();

    const customer = (await s.p.api(a.office.token, 'GET', `/jobs/${job.body.id}`)).body.customer.id;
    const office = await s.browser.newContext(DESKTOP);
    const desk = await signInToOffice(s, office, a, `/office/customers/${customer}`, a.office.email);
    await desk.waitForSelector('#auto-messages >> text=On my way');
    const section = await desk.textContent('#auto-messages');
    expect(section).toContain('sent by text and email');
    expect(section).toContain('about 20 minutes');
    expect(section).toContain('Appointment confirmed');
    await desk.selectOption('#msg-channel', 'email');
    await desk.fill('#msg-zone', 'Mars/Olympus');
    await desk.click('#channel-form button[type=submit]');
    await desk.waitForSelector('#office-msg:has-text("IANA time zone")');
    await desk.fill('#msg-zone', 'Europe/Dublin');
    await desk.click('#channel-form button[type=submit]');
    await desk.waitForSelector('#office-msg:has-text("Message preference saved.")');
    expect((await s.p.api(a.office.token, 'GET', `/customers/${customer}/messages`)).body).toMatchObject({
      channel: 'email',
      time_zone: 'Europe/Dublin',
    });
    expect(await desk.inputValue('#msg-zone')).toBe('Europe/Dublin');
    await checkBothWidths(desk, 'customer-timeline');
    await office.close();
  });
});
