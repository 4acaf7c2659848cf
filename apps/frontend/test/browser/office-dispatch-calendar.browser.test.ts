/**
 * Issue 21's dispatch calendar against the real platform (test/support/real-platform.ts), in UTC:
 * at 1280 px the day view shows each technician's jobs as blocks sized by their length; a job dragged
 * to 14:00 on another technician is assigned and moved in the ERP; the keyboard path (the block opens
 * the job's controls) reschedules it; in the week view a drag to another day keeps its time. At 375 px
 * the list board is shown. Axe 0 violations and screenshots at each.
 */
import { join } from 'node:path';

import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { PASSWORD } from '../support/real-platform.js';
import { axe, DESKTOP, PHONE_375 } from './chromium.js';
import { SHOTS, useRealPlatform } from './real-session.js';

const s = useRealPlatform();
const UTC = { timezoneId: 'UTC' };

async function signIn(ctx: BrowserContext, path: string): Promise<Page> {
  const page = await ctx.newPage();
  await page.goto(`${s.p.siteOf(s.p.a)}${path}`);
  await page.fill('#email', s.p.a.office.email);
  await page.fill('#password', PASSWORD);
  await page.click('#login button[type=submit]');
  return page;
}

/** The ERP's order as dispatch left it: technician, start and end (ERP UTC text). */
async function orderOf(name: string) {
  const [o] = await (
    await s.p.erpOf(s.p.a)
  ).searchRead('fsm.order', [['name', '=', name]], {
    fields: ['person_id', 'scheduled_date_start', 'scheduled_date_end'],
  });
  return { person: (o!.person_id as [number, string])[1], start: o!.scheduled_date_start, end: o!.scheduled_date_end };
}

describe('the dispatch calendar', () => {
  it('moves a job to 14:00 on another technician by dragging, then by keyboard, then to another day of the week', async () => {
    const { a } = s.p;
    const tess = await s.p.invite(a, 'tess.cal@acme-a.test', 'technician', 'Tess Tech');
    const day = new Date().toISOString().slice(0, 10);
    const made = await s.p.api(a.office.token, 'POST', '/jobs', {
      customer: { name: 'Dora Dispatch', phone: '303-555-0111' },
      address: { street: '5 Cedar Ct', city: 'Denver', zip: '80203' },
      scheduled_start: `${day}T10:00:00Z`,
      scheduled_end: `${day}T12:00:00Z`,
      technician_id: a.technician.id,
      windows: [{ room: 'Hall', product: 'Roller shade', width_in: 30, drop_in: 40, mount: 'inside' }],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const job = made.body as { id: string; name: string };
    const block = `.cal-job[data-job="${job.id}"]`;

    const ctx = await s.browser.newContext({ ...DESKTOP, ...UTC });
    const page = await signIn(ctx, `/office/dispatch?day=${day}`);
    await page.waitForSelector(`section[aria-label="Terry Tech"] ${block}`);
    expect(await page.textContent('h1')).toContain('Dispatch:');
    // Two hours of the twelve the day shows: a sixth of the track.
    const [b, track] = await Promise.all([
      page.locator(block).boundingBox(),
      page.locator('section[aria-label="Terry Tech"] .cal-track').boundingBox(),
    ]);
    expect(Math.abs(b!.width / track!.width - 1 / 6)).toBeLessThan(0.01);
    expect(Math.abs((b!.x - track!.x) / track!.width - 3 / 12)).toBeLessThan(0.01);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'dispatch-day-1280.png'), fullPage: true });

    await page.dragAndDrop(block, `[data-drop="${tess.id}|${day}T14:00"]`, { sourcePosition: { x: 8, y: 8 } });
    await page.waitForSelector('#office-msg:has-text("assigned to Tess Tech")');
    await page.waitForSelector(`section[aria-label="Tess Tech"] ${block}`);
    expect(await orderOf(job.name)).toEqual({
      person: 'Tess Tech',
      start: `${day} 14:00:00`,
      end: `${day} 16:00:00`,
    });

    // The keyboard path: the block opens the job's own controls.
    await page.focus(block);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#job-editor');
    await page.fill(`#start-${job.id}`, `${day}T15:30`);
    await page.focus(`button[data-reschedule="${job.id}"]`);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#office-msg:has-text("Rescheduled")');
    expect((await orderOf(job.name)).start).toBe(`${day} 15:30:00`);
    expect(await axe(page)).toEqual([]);

    // The week: dragged onto Terry's cell of another day, the job keeps 15:30.
    await page.goto(`${s.p.siteOf(a)}/office/dispatch?view=week&day=${day}`);
    await page.waitForSelector(`section[aria-label="Tess Tech"] ${block}`);
    const week = await page.$$eval('section[aria-label="Terry Tech"] .cal-cell', (cells) =>
      cells.map((c) => (c as HTMLElement).dataset.drop!.split('|')[1]!),
    );
    expect(week).toHaveLength(7);
    const other = week[0] === day ? week[6]! : week[0]!;
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'dispatch-week-1280.png'), fullPage: true });
    await page.dragAndDrop(block, `[data-drop="${a.technician.id}|${other}"]`, { sourcePosition: { x: 8, y: 8 } });
    await page.waitForSelector('#office-msg:has-text("assigned to Terry Tech")');
    expect(await orderOf(job.name)).toMatchObject({ person: 'Terry Tech', start: `${other} 15:30:00` });
    await ctx.close();

    // A phone gets the list board.
    const phone = await s.browser.newContext({ ...PHONE_375, ...UTC });
    const small = await signIn(phone, `/office/dispatch?day=${other}`);
    await small.waitForSelector('h1:has-text("Dispatch board")');
    await small.waitForSelector(`section[data-drop="${a.technician.id}"] li[data-job="${job.id}"]`);
    expect(await axe(small)).toEqual([]);
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await small.screenshot({ path: join(SHOTS, 'dispatch-list-375.png'), fullPage: true });
    await phone.close();
  });
});
