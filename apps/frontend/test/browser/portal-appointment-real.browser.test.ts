/**
 * Issue 29's appointment link against the real platform with `npm start`'s own stand-ins: the office
 * books a visit, the customer's phone (the SMS stand-in) gets the confirmation with a link on the
 * company's host, and opening it at 375 px shows the date and arrival window in the company's zone,
 * the technician's first name, the address, "booked", how to change it and "Add to calendar" (an
 * .ics of the visit). Cancelled, the same link says so; on another tenant's host, or unknown, it is
 * the one clear "link no longer works" page. Screenshots at 375 and 1280 px, axe 0 at both.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { axe, PHONE_375 } from './chromium.js';
import { middayZone, officeBooksVisit, tenantATexts, textTo } from './messages.steps.js';
import { bothWidthsChecker, SHOTS, useRealPlatform } from './real-session.js';

const s = useRealPlatform({ localProviders: true });
const checkBothWidths = bothWidthsChecker('appointment');

describe('the appointment page', () => {
  it('opens from the confirmation text on a phone and shows the visit; cancelled, it says so', async () => {
    const { a, b } = s.p;
    await tenantATexts(s);
    const start = new Date(Date.now() + 2 * 86_400_000);
    start.setUTCMinutes(0, 0, 0);
    const jobId = await officeBooksVisit(s, 'Paula Portal', '+1 303 555 0166', start);

    const text = await textTo(s, '13035550166', 'your appointment is booked');
    const link = /https?:\/\/\S+\/portal\/appointment\/[\w-]{43}/.exec(text)?.[0];
    expect(link, text).toBeDefined();
    const url = new URL(link!);
    expect(url.hostname).toBe(`${a.slug}.tenants.localhost`);

    const ctx = await s.browser.newContext({ ...PHONE_375, acceptDownloads: true });
    const page = await ctx.newPage();
    // The link's path on the tenant's own host (the test's frontend listens on its own port).
    await page.goto(`${s.p.siteOf(a)}${url.pathname}`);
    const zone = middayZone();
    const day = new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'long', day: 'numeric', month: 'long' });
    const hm = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hour12: false });
    expect(await page.textContent('#appointment-status')).toBe('Your appointment is booked.');
    expect(await page.textContent('#appointment-date')).toBe(day.format(start));
    expect(await page.textContent('#appointment-window')).toContain(
      `${hm.format(start)}–${hm.format(new Date(start.getTime() + 7_200_000))}`,
    );
    expect(await page.textContent('#appointment-technician')).toBe('Terry');
    expect(await page.textContent('#appointment-address')).toBe('1420 Larimer St, Denver, 80202');
    expect(await page.textContent('h1')).toContain('Acme Blinds');
    expect(await page.textContent('#appointment-contact')).toMatch(/^Please (call|email|contact)/);
    expect(await axe(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: join(SHOTS, 'appointment-from-text-375.png'), fullPage: true });

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#add-to-calendar')]);
    const ics = await readFile((await download.path())!, 'utf8');
    expect(ics).toContain('BEGIN:VEVENT');
    expect(ics).toContain(`DTSTART:${start.toISOString().replace(/[-:]/g, '').replace('.000', '')}`);
    expect(ics).toContain('Appointment with Acme Blinds');

    await page.setViewportSize({ width: 1280, height: 800 });
    await checkBothWidths(page, 'booked');

    const cancel = await s.p.api(a.office.token, 'POST', `/jobs/${jobId}/stage`, { stage: 'cancelled' });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    await page.reload();
    expect(await page.textContent('#appointment-status')).toBe('This appointment is cancelled.');
    expect(await page.locator('#add-to-calendar').count()).toBe(0);
    await checkBothWidths(page, 'cancelled');

    await page.setViewportSize({ width: 375, height: 740 });
    for (const wrong of [`${s.p.siteOf(b)}${url.pathname}`, `${s.p.siteOf(a)}/portal/appointment/${'x'.repeat(43)}`]) {
      const r = await page.goto(wrong);
      expect(r!.status(), wrong).toBe(404);
      const shown = (await page.textContent('main'))!;
      expect(shown).toContain('This link no longer works');
      expect(shown).toContain('Appointment links stop working two weeks after the visit');
      expect(shown).not.toMatch(/Paula|Larimer|Terry/);
    }
    await page.screenshot({ path: join(SHOTS, 'appointment-link-invalid-375.png'), fullPage: true });
    await ctx.close();
  });
});
