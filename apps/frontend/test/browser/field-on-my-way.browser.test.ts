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

import { axe, DESKTOP, PHONE_375 } from './chromium.js';
import { officeBooksVisit, tenantATexts, textTo } from './messages.steps.js';
import { signInToField, signInToOffice } from './office-session.js';
import { bothWidthsChecker, SHOTS, useRealPlatform } from './real-session.js';

const s = useRealPlatform({ localProviders: true });
const checkBothWidths = bothWidthsChecker('messages');

describe('On my way', () => {
  it('texts the customer the company and the estimate the technician picked, and the office sees it', async () => {
    const { a } = s.p;
    await tenantATexts(s);
    const start = new Date(Date.now() + 3_600_000);
    const jobId = await officeBooksVisit(s, 'Rosa Waiting', '+1 303 555 0188', start);

    const ctx = await s.browser.newContext(PHONE_375);
    const page = await signInToField(s, ctx, a);
    await page.click('text=Rosa Waiting');
    await page.waitForSelector('h1:has-text("Rosa Waiting")');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'messages-on-my-way-375.png'), fullPage: true });
    await page.click('button[data-eta="20"]');

    const text = await textTo(s, '13035550188', 'on the way');
    expect(text).toBe('Acme Blinds: Terry is on the way and should arrive in about 20 minutes.');
    await ctx.close();

    const customer = (await s.p.api(a.office.token, 'GET', `/jobs/${jobId}`)).body.customer.id;
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
