/**
 * The technician's calendar feed from the field app, on the real platform: "Calendar" on My jobs,
 * "Get my calendar link" shows a private link whose feed (read through the tenant's host, parsed
 * with node-ical) holds today's job; "Turn off" makes the link answer 404. At 375 and 1280 px.
 */
import ical, { type VEvent } from 'node-ical';
import { describe, expect, it } from 'vitest';

import { PASSWORD } from '../support/real-platform.js';
import { DESKTOP } from './chromium.js';
import { bothWidthsChecker, useRealPlatform } from './real-session.js';

const s = useRealPlatform();
const check = bothWidthsChecker('field-calendar');

describe('the field app calendar link', () => {
  it('makes a private feed link with today’s job, and turning it off stops it', async () => {
    const day = new Date().toISOString().slice(0, 10);
    const made = await s.p.api(s.p.a.office.token, 'POST', '/jobs', {
      customer: { name: 'Cora Calendar', phone: '+1 303 555 0142' },
      address: { street: '1420 Larimer St', city: 'Denver', zip: '80202', state: 'CO' },
      scheduled_start: `${day}T16:00:00Z`,
      scheduled_end: `${day}T18:00:00Z`,
      technician_id: s.p.a.technician.id,
      windows: [{ room: 'Kitchen', product: 'Roller shade', width_in: 36, drop_in: 48, mount: 'inside' }],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);

    const ctx = await s.browser.newContext(DESKTOP);
    const page = await ctx.newPage();
    await page.goto(`${s.p.siteOf(s.p.a)}/field/login`);
    await page.fill('#email', s.p.a.technician.email);
    await page.fill('#password', PASSWORD);
    await page.click('#login button[type=submit]');
    await page.waitForSelector('text=Cora Calendar');
    await check(page, 'jobs');
    await page.click('a.btn:has-text("Calendar")');
    await page.waitForURL('**/field/calendar');
    await page.click('button:has-text("Get my calendar link")');
    const url = await page.inputValue('#calendar-url');
    expect(url).toMatch(new RegExp(`^${s.p.siteOf(s.p.a)}/api/control/calendar/[\\w-]{32}\\.ics$`));
    expect(await page.getAttribute('a:has-text("Subscribe in my calendar")', 'href')).toBe(
      url.replace(/^http:/, 'webcal:'),
    );
    await check(page, 'link');

    // The phone's calendar app fetches the link: here the page itself, same origin, no session header.
    const feed = await page.evaluate((u) => fetch(u, { credentials: 'omit' }).then((r) => r.text()), url);
    const events = Object.values(ical.sync.parseICS(feed)).filter((e): e is VEvent => e?.type === 'VEVENT');
    expect(events.map((e) => [e.summary, e.location, e.start.toISOString()])).toEqual([
      [`${made.body.name} · Cora Calendar`, '1420 Larimer St, Denver, CO 80202', `${day}T16:00:00.000Z`],
    ]);

    await page.click('button:has-text("Turn off")');
    await page.waitForSelector('text=Calendar link turned off');
    await check(page, 'off');
    expect(await page.evaluate((u) => fetch(u).then((r) => r.status), url)).toBe(404);
    await ctx.close();
  });
});
